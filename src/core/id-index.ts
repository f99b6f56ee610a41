// Where each record of a snapshot is by its id. A map from id to position would have to be built again
// at every change (positions move whenever a record is added or leaves: 140 ms at 340,000 records), so
// each id has a stable number instead, shared by every snapshot a chain of changes makes; a change adds
// its new ids to the numbers and renumbers positions in typed arrays (milliseconds). The numbers are only
// ever added to: a snapshot made before an id was added finds that id's number past its own array.
import { compareListingOrder } from './cve-id.js';
import { Derived } from './derived.js';
import { partitionPoint } from './partition-point.js';

/** How many ids the map of the first ids takes in a step, between requests. */
const MAP_STEP = 20_000;

/**
 * Each id's number. The ids an index was first made of (in listing order, numbered by their positions) are
 * found by bisection until `prepare` has put them in a map, after a server listens: making that map of
 * 340,000 ids cost a start from a checkpoint 150 to 250 ms of CPU before its first answer (docs/PERFORMANCE.md,
 * "The sync step and the start, stop 38"); a bisection costs a look-up about a microsecond meanwhile. The
 * ids changes bring are numbered after them, in a map of their own.
 */
export class IdNumbers {
  /** The first ids until their map is made (then only the map holds them). */
  #first: readonly string[];
  readonly #count: number;
  readonly #added = new Map<string, number>();
  readonly #map: Derived<Map<string, number>>;
  /** The map once made, read directly: a look-up on the hot path pays no call into the build. */
  #firstMap: Map<string, number> | undefined;

  constructor(first: readonly string[]) {
    this.#first = first;
    this.#count = first.length;
    this.#map = new Derived(() => this.#mapSteps());
  }

  get(id: string): number | undefined {
    const first = this.#firstMap !== undefined ? this.#firstMap.get(id) : this.#bisect(id);
    return first ?? this.#added.get(id);
  }

  /** Numbers an id that has none. */
  add(id: string): number {
    const number = this.size;
    this.#added.set(id, number);
    return number;
  }

  get size(): number {
    return this.#count + this.#added.size;
  }

  /** The map of the first ids, made in steps that give the event loop back between them. */
  async prepare(): Promise<void> {
    await this.#map.prepare();
  }

  #bisect(id: string): number | undefined {
    const first = this.#first;
    const low = partitionPoint(0, first.length, (i) => compareListingOrder(first[i]!, id) < 0);
    return first[low] === id ? low : undefined;
  }

  *#mapSteps(): Generator<void, Map<string, number>, void> {
    // A loop rather than new Map(ids.map(...)): no pair array per record.
    const map = new Map<string, number>();
    for (let position = 0; position < this.#first.length; position++) {
      map.set(this.#first[position]!, position);
      if ((position + 1) % MAP_STEP === 0) yield;
    }
    this.#firstMap = map;
    this.#first = [];
    return map;
  }
}

export interface IdIndex {
  /** Each id's number, shared along a chain of changes; only ever added to. */
  readonly numbers: IdNumbers;
  /** The number of the record at each position. */
  readonly numberAt: Int32Array;
  /** The position of each number in this snapshot, -1 when its record is not in it. */
  readonly positions: Int32Array;
}

/** The index of ids in listing order, numbered by their positions. */
export function idIndex(ids: readonly string[]): IdIndex {
  const numberAt = new Int32Array(ids.length);
  for (let position = 0; position < ids.length; position++) numberAt[position] = position;
  return { numbers: new IdNumbers(ids), numberAt, positions: numberAt.slice() };
}

/** The position of an id, or undefined when the snapshot has no record of that id. */
export function positionIn({ numbers, positions }: IdIndex, id: string): number | undefined {
  const number = numbers.get(id);
  if (number === undefined || number >= positions.length) return undefined;
  const position = positions[number]!;
  return position < 0 ? undefined : position;
}

/**
 * The index after a change: `ids` in the new listing order, `from[position]` the record's previous
 * position or -1 for a record the change brought (numbered as before when its id had a number).
 */
export function patchedIdIndex(previous: IdIndex, ids: readonly string[], from: Int32Array): IdIndex {
  const { numbers } = previous;
  const numberAt = new Int32Array(ids.length);
  for (let position = 0; position < ids.length; position++) {
    const before = from[position]!;
    if (before >= 0) numberAt[position] = previous.numberAt[before]!;
    else numberAt[position] = numbers.get(ids[position]!) ?? numbers.add(ids[position]!);
  }
  const positions = new Int32Array(numbers.size).fill(-1);
  for (let position = 0; position < ids.length; position++) positions[numberAt[position]!] = position;
  return { numbers, numberAt, positions };
}
