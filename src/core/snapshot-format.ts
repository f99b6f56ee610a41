// The snapshot file: everything a server needs to serve a catalog, laid out so that reading it is a few
// reads into buffers and views over them, with no parsing of records. The importer writes it beside a
// catalog (`--out catalog.snapshot`); the server loads it in a fraction of a second and reads the long
// texts (summaries and details) from it on demand. Pure encoding and decoding here; the reading and writing of files
// is in catalog/snapshot/snapshot-file.ts and catalog/snapshot/snapshot-writer.ts.
//
// Layout: 8 bytes of magic, a u32 format version, a u32 header length, the header (JSON), then the
// sections the header lists (each 8-byte aligned), the text region last: every summary, then every record's
// details as JSON.
import { type CatalogRemoval, SEVERITIES } from '../contract/index.js';
import { type RecordTable, STATUS_CODES } from './record-table.js';
import { BLOCK, type TextIndexData } from './search/text-index.js';
import { NO_SEVERITY } from './severity.js';
import type { TextColumn } from './text-store.js';

export const SNAPSHOT_MAGIC = Buffer.from('CVERSNAP');
/**
 * 2: records carry when they last changed (`modified`). 3: records carry their details. 4: the list filters'
 * columns (severity, KEV, CWE ids), which a format 3 file lacks: it is refused by its number, to import again.
 * 5: what the search index's scores were made of (word counts, field lengths), which a change needs to score again.
 */
export const SNAPSHOT_FORMAT = 5;
/** Magic, format version and header length. */
export const PREAMBLE_BYTES = 16;

type SectionKind = 'json' | 'u8' | 'u16' | 'u32' | 'i32' | 'f32' | 'f64' | 'u64';

export interface SectionEntry {
  readonly name: string;
  readonly kind: SectionKind;
  readonly offset: number;
  readonly length: number;
}

export interface SnapshotHeader {
  readonly format: number;
  /** Content hash of the catalog, as createSnapshot computes it. */
  readonly version: string;
  readonly lastVerified: string;
  readonly size: number;
  readonly sections: readonly SectionEntry[];
  /** Where the text region starts and how long it is. */
  readonly text: { readonly offset: number; readonly length: number };
  /** A checkpoint of a store of record: which store, and the sequence the file holds (absent otherwise). */
  readonly store?: { readonly id: string; readonly sequence: number } | undefined;
}

/** The parts of a snapshot a file holds, besides its header fields. */
export interface SnapshotContent {
  readonly table: RecordTable;
  readonly aliases: ReadonlyMap<string, readonly string[]>;
  readonly textIndex: TextIndexData;
  /** Where each record's summary is in the text region. */
  readonly summaries: TextColumn;
  /** Where each record's details (JSON) are in the text region. */
  readonly details: TextColumn;
  /** Records that left the catalog (a section files of format 2 written before removals existed lack). */
  readonly removed: readonly CatalogRemoval[];
  /**
   * Each record's content hash (content-hash.ts), what a change to a checkpoint updates the version from;
   * files written before it lack it, and a change then hashes every record's texts once.
   */
  readonly hashes?: BigUint64Array | undefined;
}

type SectionValue = unknown | ArrayBufferView;

/** The sections of a snapshot, in file order, with how each is stored. */
function sectionsOf(content: SnapshotContent): [string, SectionKind, SectionValue][] {
  const { table, textIndex } = content;
  return [
    ['ids', 'json', table.ids],
    ['projectNames', 'json', table.projectNames],
    ['aliases', 'json', table.projectNames.map((name) => content.aliases.get(name) ?? [])],
    ['otherUrls', 'json', [...table.otherUrls]],
    ['removed', 'json', content.removed],
    ['changed', 'json', [...table.changed]],
    ['projectOf', 'u32', table.projectOf],
    ['status', 'u8', table.status],
    ['published', 'i32', table.published],
    ['modified', 'f64', table.modified],
    ['year', 'u16', table.year],
    ['severity', 'u8', table.severity],
    ['kev', 'u8', table.kev],
    ['cweNames', 'json', table.cweNames],
    ['cweStarts', 'u32', table.cweStarts],
    ['cweOf', 'u32', table.cweOf],
    ['summaryOffset', 'f64', content.summaries.offset],
    ['summaryLength', 'u32', content.summaries.length],
    ['detailsOffset', 'f64', content.details.offset],
    ['detailsLength', 'u32', content.details.length],
    ['words', 'json', textIndex.words],
    ['starts', 'u32', textIndex.starts],
    ['docs', 'i32', textIndex.docs],
    ['scores', 'f32', textIndex.scores],
    ['blockStarts', 'u32', textIndex.blockStarts],
    ['blockMax', 'f32', textIndex.blockMax],
    ['counts', 'u16', textIndex.counts],
    ['projectLengths', 'u32', textIndex.projectLengths],
    ['summaryLengths', 'u32', textIndex.summaryLengths],
    ...(content.hashes ? [['hashes', 'u64', content.hashes] as [string, SectionKind, SectionValue]] : []),
  ];
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/**
 * The bytes before the text region, in pieces to write one after the other (preamble and header, then
 * each section and its padding): the sections are views of the content's arrays, not copies, which at
 * 340,000 records saves a buffer of 150 MB. `textLength` is the size of the text region that follows.
 */
export function encodeSnapshot(
  fields: Pick<SnapshotHeader, 'version' | 'lastVerified' | 'store'>,
  content: SnapshotContent,
  textLength: number,
): Buffer[] {
  const bodies = sectionsOf(content).map(([name, kind, value]) => {
    const bytes =
      kind === 'json'
        ? Buffer.from(JSON.stringify(value))
        : Buffer.from((value as ArrayBufferView).buffer, (value as ArrayBufferView).byteOffset, (value as ArrayBufferView).byteLength);
    return { name, kind, bytes };
  });
  // The header names the offsets, whose values depend on the header's length: settle it in two passes.
  let headerLength = 0;
  for (;;) {
    let offset = align(PREAMBLE_BYTES + headerLength);
    const sections = bodies.map(({ name, kind, bytes }) => {
      const entry = { name, kind, offset, length: bytes.length };
      offset = align(offset + bytes.length);
      return entry;
    });
    const header: SnapshotHeader = {
      format: SNAPSHOT_FORMAT,
      ...fields,
      size: content.table.size,
      sections,
      text: { offset, length: textLength },
    };
    const headerBytes = Buffer.from(JSON.stringify(header));
    if (headerBytes.length !== headerLength) {
      headerLength = headerBytes.length;
      continue;
    }
    const start = Buffer.alloc(align(PREAMBLE_BYTES + headerLength));
    SNAPSHOT_MAGIC.copy(start, 0);
    start.writeUInt32LE(SNAPSHOT_FORMAT, 8);
    start.writeUInt32LE(headerLength, 12);
    headerBytes.copy(start, PREAMBLE_BYTES);
    const pieces: Buffer[] = [start];
    sections.forEach((section, i) => {
      const { bytes } = bodies[i]!;
      pieces.push(bytes);
      const padding = align(section.offset + bytes.length) - (section.offset + bytes.length);
      if (padding > 0) pieces.push(Buffer.alloc(padding));
    });
    return pieces;
  }
}

export class SnapshotFormatError extends Error {}

/**
 * The search index's sections, one run in the file: most of its bytes before the texts, which a server
 * needs only once it builds its search (after its first answers), so they are read and checked then.
 */
const INDEX_SECTIONS: ReadonlySet<string> = new Set([
  'words',
  'starts',
  'docs',
  'scores',
  'blockStarts',
  'blockMax',
  'counts',
  'projectLengths',
  'summaryLengths',
]);

/** Bytes of a snapshot file, read from `offset` (a section's, so that typed arrays can view them, aligned). */
export interface FileBytes {
  readonly bytes: Buffer;
  readonly offset: number;
}

/** The content of a snapshot file but its search index: what a server needs for its first answers. */
export type SnapshotColumns = Omit<SnapshotContent, 'textIndex'>;

/** Where the search index's sections are in the file, padding included (`length` 0 when the header lists none). */
export function indexRange(header: SnapshotHeader): { readonly offset: number; readonly length: number } {
  const index = header.sections.filter((section) => INDEX_SECTIONS.has(section.name));
  if (index.length === 0) return { offset: header.text.offset, length: 0 };
  const offset = Math.min(...index.map((section) => section.offset));
  // To the next section's start (sections are 8-byte aligned), so that the bytes after it view aligned.
  return { offset, length: align(Math.max(...index.map((section) => section.offset + section.length))) - offset };
}

/** The header of a snapshot file from its first bytes (at least PREAMBLE_BYTES + the header). */
export function decodeHeader(start: Buffer): SnapshotHeader {
  if (start.length < PREAMBLE_BYTES || !start.subarray(0, 8).equals(SNAPSHOT_MAGIC)) throw new SnapshotFormatError('not a snapshot file');
  const format = start.readUInt32LE(8);
  if (format !== SNAPSHOT_FORMAT)
    throw new SnapshotFormatError(`snapshot format ${format}; this service reads format ${SNAPSHOT_FORMAT}: import again`);
  const length = start.readUInt32LE(12);
  if (start.length < PREAMBLE_BYTES + length) throw new SnapshotFormatError('snapshot header is cut short');
  return JSON.parse(start.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + length).toString('utf8')) as SnapshotHeader;
}

/** The sections of `header` that `wanted` names, decoded from the bytes read of the file; typed arrays view them. */
function decodeSections(header: SnapshotHeader, pieces: readonly FileBytes[], wanted: (name: string) => boolean) {
  const read = new Map<string, unknown>();
  for (const { name, kind, offset, length } of header.sections) {
    if (!wanted(name)) continue;
    const piece = pieces.find((bytes) => bytes.offset <= offset && offset + length <= bytes.offset + bytes.bytes.length);
    if (piece === undefined) throw new SnapshotFormatError(`snapshot section ${name} is cut short`);
    const at = piece.bytes.byteOffset + offset - piece.offset;
    const bytes = piece.bytes.subarray(offset - piece.offset, offset - piece.offset + length);
    const buffer = piece.bytes.buffer;
    const view = (Kind: { new (buffer: ArrayBufferLike, offset: number, length: number): unknown; BYTES_PER_ELEMENT: number }) =>
      new Kind(buffer, at, length / Kind.BYTES_PER_ELEMENT);
    switch (kind) {
      case 'json':
        read.set(name, JSON.parse(bytes.toString('utf8')));
        break;
      case 'u8':
        read.set(name, view(Uint8Array));
        break;
      case 'u16':
        read.set(name, view(Uint16Array));
        break;
      case 'u32':
        read.set(name, view(Uint32Array));
        break;
      case 'i32':
        read.set(name, view(Int32Array));
        break;
      case 'f32':
        read.set(name, view(Float32Array));
        break;
      case 'f64':
        read.set(name, view(Float64Array));
        break;
      case 'u64':
        read.set(name, view(BigUint64Array));
        break;
    }
  }
  return read;
}

/** A decoded section, or a SnapshotFormatError naming it. */
function sectionOf(read: ReadonlyMap<string, unknown>) {
  return <T>(name: string): T => {
    if (!read.has(name)) throw new SnapshotFormatError(`snapshot section ${name} is missing`);
    return read.get(name) as T;
  };
}

/**
 * The content of a snapshot but its search index, from bytes read of the file (the index's sections
 * need not be among them), checked.
 */
export function decodeSnapshot(header: SnapshotHeader, pieces: readonly FileBytes[]): SnapshotColumns {
  const read = decodeSections(header, pieces, (name) => !INDEX_SECTIONS.has(name));
  const section = sectionOf(read);
  const ids = section<string[]>('ids');
  const projectNames = section<string[]>('projectNames');
  const aliases = section<string[][]>('aliases');
  const content: SnapshotColumns = {
    table: {
      size: header.size,
      ids,
      projectNames,
      projectOf: section('projectOf'),
      status: section('status'),
      published: section('published'),
      modified: section('modified'),
      year: section('year'),
      otherUrls: new Map(section<[number, string | null][]>('otherUrls')),
      changed: new Map(read.has('changed') ? section<[number, number][]>('changed') : []),
      severity: section('severity'),
      kev: section('kev'),
      cweNames: section('cweNames'),
      cweStarts: section('cweStarts'),
      cweOf: section('cweOf'),
    },
    aliases: new Map(projectNames.flatMap((name, i) => ((aliases[i]?.length ?? 0) > 0 ? [[name, aliases[i]!]] : []))),
    summaries: { offset: section('summaryOffset'), length: section('summaryLength') },
    details: { offset: section('detailsOffset'), length: section('detailsLength') },
    removed: read.has('removed') ? section<CatalogRemoval[]>('removed') : [],
    hashes: read.has('hashes') ? section<BigUint64Array>('hashes') : undefined,
  };
  checkColumns(header, content);
  return content;
}

/** The search index of a snapshot, from the bytes of its sections (in `piece`), checked against the header's size. */
export function decodeTextIndex(header: SnapshotHeader, piece: FileBytes): TextIndexData {
  const section = sectionOf(decodeSections(header, [piece], (name) => INDEX_SECTIONS.has(name)));
  const index: TextIndexData = {
    words: section('words'),
    starts: section('starts'),
    docs: section('docs'),
    scores: section('scores'),
    blockStarts: section('blockStarts'),
    blockMax: section('blockMax'),
    counts: section('counts'),
    projectLengths: section('projectLengths'),
    summaryLengths: section('summaryLengths'),
  };
  checkIndex(header.size, index);
  return index;
}

function fail(what: string): never {
  throw new SnapshotFormatError(`snapshot ${what} is inconsistent`);
}

/**
 * That every index in the file points inside what it indexes, so a damaged or hand-edited file is refused
 * at load rather than answering wrong records or throwing mid-request. A few milliseconds at 340,000 records.
 */
function checkColumns(header: SnapshotHeader, { table, summaries, details, removed, hashes }: SnapshotColumns): void {
  const { size } = table;
  const texts = [summaries.offset, summaries.length, details.offset, details.length];
  const columns = [
    table.ids,
    table.projectOf,
    table.status,
    table.published,
    table.modified,
    table.year,
    table.severity,
    table.kev,
    ...texts,
  ];
  if (!Array.isArray(table.ids) || columns.some((column) => column.length !== size)) fail('record columns');
  if (hashes !== undefined && hashes.length !== size) fail('record hashes');
  const { cweStarts, cweOf } = table;
  if (!Array.isArray(table.cweNames) || cweStarts.length !== size + 1 || cweStarts[0] !== 0 || cweStarts[size] !== cweOf.length)
    fail('CWE columns');
  for (let i = 0; i < size; i++) {
    if (table.projectOf[i]! >= table.projectNames.length || table.status[i]! >= STATUS_CODES.length) fail('record columns');
    if (table.severity[i]! >= SEVERITIES.length && table.severity[i] !== NO_SEVERITY) fail('record columns');
    if (cweStarts[i + 1]! < cweStarts[i]!) fail('CWE columns');
    for (const [what, column] of [
      ['summary', summaries],
      ['details', details],
    ] as const) {
      const offset = column.offset[i]!;
      if (offset >= 0 && offset + column.length[i]! > header.text.length) fail(`${what} offsets`);
    }
  }
  for (const cwe of cweOf) if (cwe >= table.cweNames.length) fail('CWE columns');
  for (const [position, time] of table.changed) if (!(position >= 0 && position < size) || typeof time !== 'number') fail('record columns');
  if (!Array.isArray(removed) || removed.some((r) => typeof r?.id !== 'string' || Number.isNaN(Date.parse(r?.modified)))) {
    fail('removed records');
  }
}

/** That the search index's postings and lengths fit the snapshot's records, as checkColumns does for the columns. */
function checkIndex(
  size: number,
  { words, starts, docs, scores, blockStarts, blockMax, counts, projectLengths, summaryLengths }: TextIndexData,
): void {
  if (!Array.isArray(words)) fail('search index');
  if (starts.length !== words.length + 1 || blockStarts.length !== words.length + 1 || scores.length !== docs.length) fail('search index');
  if (counts.length !== docs.length || projectLengths.length !== size || summaryLengths.length !== size) fail('search index');
  if (starts[words.length] !== docs.length || blockStarts[words.length] !== blockMax.length) fail('search index');
  for (let w = 0; w < words.length; w++) {
    const postings = starts[w + 1]! - starts[w]!;
    if (postings < 0 || blockStarts[w + 1]! - blockStarts[w]! !== Math.ceil(postings / BLOCK)) fail('search index');
  }
  for (let i = 0; i < docs.length; i++) if (docs[i]! < 0 || docs[i]! >= size) fail('search index');
}
