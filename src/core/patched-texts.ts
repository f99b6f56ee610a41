// The texts of a snapshot made by a change (snapshot-delta.ts): the records it did not touch read theirs
// from the texts of the snapshot the chain started from (a snapshot file, a load's temporary file, a
// catalog's buffer), the records it brought read theirs from the chain's spill file. One level whatever the
// number of changes, so a snapshot never holds the snapshots before it, only the texts they all share.
import { TextFile } from './text-file.js';
import type { TextStore } from './text-store.js';

/** A record's own texts, brought by a change. */
export interface OwnTexts {
  readonly summary: string | undefined;
  /** RecordDetails as detailsJson writes them. */
  readonly details: string | undefined;
}

/** Where a record's own texts were written in the chain's spill file (-1: the record has no such text). */
interface Spilled {
  readonly summaryAt: number;
  readonly summaryBytes: number;
  readonly detailsAt: number;
  readonly detailsBytes: number;
}

/**
 * The texts the changes of one chain brought, appended to a private temporary file rather than kept as
 * strings: a server following upstream for weeks holds a few numbers per changed record, not its details
 * (about 2 KB each). Every snapshot of the chain holds this object; the file closes when the last one goes.
 */
class TextSpill {
  readonly #file = TextFile.temporary();
  #end = 0;

  constructor() {
    this.#file.closeWith(this);
  }

  append({ summary, details }: OwnTexts): Spilled {
    const summaryBytes = summary === undefined ? 0 : Buffer.byteLength(summary);
    const detailsBytes = details === undefined ? 0 : Buffer.byteLength(details);
    const buffer = Buffer.allocUnsafe(summaryBytes + detailsBytes);
    if (summary !== undefined) buffer.write(summary, 0, 'utf8');
    if (details !== undefined) buffer.write(details, summaryBytes, 'utf8');
    const at = this.#end;
    this.#file.writeAt(buffer, buffer.length, at);
    this.#end += buffer.length;
    return {
      summaryAt: summary === undefined ? -1 : at,
      summaryBytes,
      detailsAt: details === undefined ? -1 : at + summaryBytes,
      detailsBytes,
    };
  }

  read(at: number, bytes: number): string | undefined {
    return at < 0 ? undefined : this.#file.read(at, bytes);
  }
}

export class PatchedTexts implements TextStore {
  /**
   * `baseOf[position]` is the record's position in `base`, or -1 when its texts are its own (in `spill`,
   * where `own` says, by position).
   */
  private constructor(
    readonly base: TextStore,
    private readonly baseOf: Int32Array,
    private readonly own: ReadonlyMap<number, Spilled>,
    private readonly spill: TextSpill,
  ) {}

  /**
   * The texts after a change: `from[position]` is the record's position in `previous`, or -1 for a record
   * the change brought, whose texts are in `brought` (by new position).
   */
  static patch(previous: TextStore, from: Int32Array, brought: ReadonlyMap<number, OwnTexts>): PatchedTexts {
    const chained = previous instanceof PatchedTexts ? previous : undefined;
    const spill = chained?.spill ?? new TextSpill();
    const baseOf = new Int32Array(from.length);
    const own = new Map<number, Spilled>();
    for (const [position, texts] of brought) own.set(position, spill.append(texts));
    for (let position = 0; position < from.length; position++) {
      const before = from[position]!;
      if (before < 0) baseOf[position] = -1;
      else if (!chained) baseOf[position] = before;
      else {
        const base = chained.baseOf[before]!;
        baseOf[position] = base;
        if (base < 0) own.set(position, chained.own.get(before)!);
      }
    }
    return new PatchedTexts(chained?.base ?? previous, baseOf, own, spill);
  }

  summary(position: number): string | undefined {
    const base = this.baseOf[position]!;
    if (base >= 0) return this.base.summary(base);
    const spilled = this.own.get(position);
    return spilled && this.spill.read(spilled.summaryAt, spilled.summaryBytes);
  }

  details(position: number): string | undefined {
    const base = this.baseOf[position]!;
    if (base >= 0) return this.base.details(base);
    const spilled = this.own.get(position);
    return spilled && this.spill.read(spilled.detailsAt, spilled.detailsBytes);
  }
}
