// The texts of a snapshot made by a change (snapshot-delta.ts): the records it did not touch read theirs
// from the texts of the snapshot the chain started from (a snapshot file, a load's temporary file, a
// catalog's buffer), the records it brought keep their own. One level whatever the number of changes, so a
// snapshot never holds the snapshots before it, only the texts they all share.
import type { TextStore } from './text-store.js';

/** A record's own texts, brought by a change. */
export interface OwnTexts {
  readonly summary: string | undefined;
  /** RecordDetails as detailsJson writes them. */
  readonly details: string | undefined;
}

export class PatchedTexts implements TextStore {
  /**
   * `baseOf[position]` is the record's position in `base`, or -1 when its texts are its own (`own`, by position).
   */
  private constructor(
    readonly base: TextStore,
    private readonly baseOf: Int32Array,
    private readonly own: ReadonlyMap<number, OwnTexts>,
  ) {}

  /**
   * The texts after a change: `from[position]` is the record's position in `previous`, or -1 for a record
   * the change brought, whose texts are in `brought` (by new position).
   */
  static patch(previous: TextStore, from: Int32Array, brought: ReadonlyMap<number, OwnTexts>): PatchedTexts {
    const chained = previous instanceof PatchedTexts ? previous : undefined;
    const baseOf = new Int32Array(from.length);
    const own = new Map(brought);
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
    return new PatchedTexts(chained?.base ?? previous, baseOf, own);
  }

  summary(position: number): string | undefined {
    const base = this.baseOf[position]!;
    return base >= 0 ? this.base.summary(base) : this.own.get(position)?.summary;
  }

  details(position: number): string | undefined {
    const base = this.baseOf[position]!;
    return base >= 0 ? this.base.details(base) : this.own.get(position)?.details;
  }
}
