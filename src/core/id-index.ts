// Where each record of a snapshot is by its id. A map from id to position would have to be built again
// at every change (positions move whenever a record is added or leaves: 140 ms at 340,000 records), so
// each id has a stable number instead, in a map shared by every snapshot a chain of changes makes; a
// change adds its new ids to the map and renumbers positions in typed arrays (milliseconds). The map is
// only ever added to: a snapshot made before an id was added finds that id's number past its own array.

export interface IdIndex {
  /** Each id's number, shared along a chain of changes; only ever added to. */
  readonly numbers: Map<string, number>;
  /** The number of the record at each position. */
  readonly numberAt: Int32Array;
  /** The position of each number in this snapshot, -1 when its record is not in it. */
  readonly positions: Int32Array;
}

/** The index of ids in listing order, numbered by their positions. */
export function idIndex(ids: readonly string[]): IdIndex {
  // A loop rather than new Map(ids.map(...)): no pair array per record.
  const numbers = new Map<string, number>();
  const numberAt = new Int32Array(ids.length);
  for (let position = 0; position < ids.length; position++) {
    numbers.set(ids[position]!, position);
    numberAt[position] = position;
  }
  return { numbers, numberAt, positions: numberAt.slice() };
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
    else {
      let number = numbers.get(ids[position]!);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(ids[position]!, number);
      }
      numberAt[position] = number;
    }
  }
  const positions = new Int32Array(numbers.size).fill(-1);
  for (let position = 0; position < ids.length; position++) positions[numberAt[position]!] = position;
  return { numbers, numberAt, positions };
}
