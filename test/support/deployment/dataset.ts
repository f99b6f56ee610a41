// The records the simulated upstream publishes, and every version of each that has existed: an answer is
// right when it is one of them. Each record's project names its version (widget1003-rev4 is the fifth
// version of CVE-2026-1003), so a body from a version that never existed, or from another record, shows.
import { writeBaseline, writeDelta } from '../upstream.js';

const FIRST_NUMBER = 100_000;

export interface PublishedDelta {
  readonly name: string;
  /** A record it changed and the project it gave it, to tell whether a replica serves it yet. */
  readonly sample: { readonly id: string; readonly version: number };
  /** The records it changed, and the ones it brought that no version existed of before it. */
  readonly changed: readonly string[];
  readonly added: readonly string[];
}

export class Dataset {
  readonly ids: readonly string[];
  readonly #versions = new Map<string, number>();
  readonly #deltas: PublishedDelta[] = [];
  #day = Date.UTC(2020, 0, 1);
  /** The number of the next new id: after the baseline's. */
  #next: number;

  constructor(
    readonly dir: string,
    records: number,
  ) {
    this.ids = Array.from({ length: records }, (_, i) => `CVE-2026-${FIRST_NUMBER + i}`);
    this.#next = FIRST_NUMBER + records;
    for (const id of this.ids) this.#versions.set(id, 0);
    writeBaseline(
      dir,
      this.#dayText(),
      this.ids.map((id) => this.#record(id)),
    );
  }

  /**
   * Writes the next day's delta, changing `count` records (a new version of each) and bringing `added` new
   * ones. The new ids are not among `ids`, which a load asks for: they are served only once it is applied.
   */
  publish(count: number, added = 0): PublishedDelta {
    this.#day += 86_400_000;
    const changed = new Set<string>();
    while (changed.size < Math.min(count, this.ids.length)) changed.add(this.ids[Math.floor(Math.random() * this.ids.length)]!);
    const fresh = Array.from({ length: added }, () => `CVE-2026-${this.#next++}`);
    // Counted before the file exists: a replica can serve a version only after it is written.
    for (const id of changed) this.#versions.set(id, this.version(id) + 1);
    for (const id of fresh) this.#versions.set(id, 0);
    const name = writeDelta(
      this.dir,
      `${this.#dayText()}_delta_CVEs_at_0100Z.zip`,
      [...changed, ...fresh].map((id) => this.#record(id)),
    );
    const id = [...changed][0]!;
    const delta = { name, sample: { id, version: this.version(id) }, changed: [...changed], added: fresh };
    this.#deltas.push(delta);
    return delta;
  }

  get deltas(): readonly PublishedDelta[] {
    return this.#deltas;
  }

  /** The newest version of `id`. */
  version(id: string): number {
    return this.#versions.get(id) ?? -1;
  }

  /** What is wrong with `record` as an answer for `id`, or undefined when it is a version that existed. */
  wrong(id: string, record: { id?: unknown; project?: unknown; status?: unknown }): string | undefined {
    if (record.id !== id) return `asked for ${id}, got ${String(record.id)}`;
    const version = versionOf(id, record.project);
    if (version === undefined || version > this.version(id))
      return `${id}: project ${String(record.project)} is no version that existed (newest r${this.version(id)})`;
    if (record.status !== 'public') return `${id}: status ${String(record.status)}`;
    return undefined;
  }

  /**
   * Not "-r4": a trailing version ("r4", "v4", "4.1") names the same product, so a sync keeps a record of a
   * vendor's group in the project it was named (canonical-projects.ts), and every version would be widget1003-r0.
   */
  projectOf(id: string, version: number): string {
    return `widget${id.slice(9)}-rev${version}`;
  }

  #dayText(): string {
    return new Date(this.#day).toISOString().slice(0, 10);
  }

  #record(id: string) {
    return { id, product: this.projectOf(id, this.version(id)), vendor: 'acme', updated: new Date(this.#day - 3_600_000).toISOString() };
  }
}

/** The version a project names for `id`, or undefined when it names none of its versions. */
export function versionOf(id: string, project: unknown): number | undefined {
  const match = typeof project === 'string' ? /^widget(\d+)-rev(\d+)$/.exec(project) : null;
  return match && match[1] === id.slice(9) ? Number(match[2]) : undefined;
}
