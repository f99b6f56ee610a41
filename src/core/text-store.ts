// Where a snapshot's longer texts are: summaries and details (as JSON) are read when a request needs
// them rather than kept as hundreds of thousands of strings or objects. A catalog read from JSON keeps
// summaries as strings and details packed in one buffer, off the JS heap; a snapshot file, and the
// temporary file a PostgreSQL load writes, are read on demand (text-file.ts).

export interface TextStore {
  /** The summary of the record at a position, when it has one. */
  summary(position: number): string | undefined;
  /** The details of the record at a position (RecordDetails as JSON), when it has them. */
  details(position: number): string | undefined;
}

/** Where each record's text is in a region of bytes: its offset (-1 for none) and byte length. */
export interface TextColumn {
  readonly offset: Float64Array;
  readonly length: Uint32Array;
}

/** Lays texts out one after the other from `start`; returns where each is and where the last one ends. */
export function layOutTexts(texts: readonly (string | undefined)[], start = 0): { column: TextColumn; end: number } {
  return layOutBytes(
    texts.map((text) => (text === undefined ? -1 : Buffer.byteLength(text))),
    start,
  );
}

/** Lays out texts of these byte lengths (-1 for none) one after the other from `start`, as layOutTexts does. */
export function layOutBytes(lengths: readonly number[], start = 0): { column: TextColumn; end: number } {
  const offset = new Float64Array(lengths.length);
  const length = new Uint32Array(lengths.length);
  let end = start;
  lengths.forEach((bytes, position) => {
    offset[position] = bytes < 0 ? -1 : end;
    length[position] = Math.max(bytes, 0);
    end += Math.max(bytes, 0);
  });
  return { column: { offset, length }, end };
}

/** The UTF-8 text of `length` bytes at `offset` of a text region. */
export type RegionReader = (offset: number, length: number) => string;

/** The text at a position of a column, read from its region. */
export function textAt(column: TextColumn, position: number, read: RegionReader): string | undefined {
  const offset = column.offset[position]!;
  return offset < 0 ? undefined : read(offset, column.length[position]!);
}

/** Texts held in memory, by position: for catalogs small enough to read whole. */
export function memoryTexts(summaries: readonly (string | undefined)[], details: readonly (string | undefined)[]): TextStore {
  const { column, end } = layOutTexts(details);
  const region = Buffer.allocUnsafe(end);
  details.forEach((text, position) => {
    if (text !== undefined) region.write(text, column.offset[position]!, 'utf8');
  });
  const read: RegionReader = (offset, length) => region.toString('utf8', offset, offset + length);
  return { summary: (position) => summaries[position], details: (position) => textAt(column, position, read) };
}
