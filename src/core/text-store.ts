// Where a snapshot's longer texts are: summaries (and, later, details) are read when a request needs
// them rather than kept as hundreds of thousands of strings. A catalog read from JSON keeps them in
// memory; a snapshot file reads them from the file on demand (sources/snapshot-file.ts).

export interface TextStore {
  /** The summary of the record at a position, when it has one. */
  summary(position: number): string | undefined;
}

/** Texts held in memory, by position: for catalogs small enough to read whole. */
export function memoryTexts(summaries: readonly (string | undefined)[]): TextStore {
  return { summary: (position) => summaries[position] };
}
