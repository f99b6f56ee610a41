// Where an import keeps its records' details until they are written: their text (detailsJson, made by the
// mapping workers) appended to a private temporary file, and per record only where it is and what the
// filters read of it. Held as objects, the details of 340,000 records took more than a gigabyte.
import type { CatalogDetails } from '../core/catalog-details.js';
import { type DetailFilters, detailFilters } from '../core/record-table.js';
import { TextFile } from '../core/text-file.js';

/** A record's details as the mapping sends them: the text and what the filters read of it. */
export interface DetailsText {
  readonly json: string;
  readonly filters: DetailFilters;
}

const NO_FILTERS = detailFilters(undefined);
/** Texts are written a megabyte at a time rather than one call each. */
const WRITE_BYTES = 1 << 20;

export class DetailsSpool {
  // Closed when the spool is collected: its readers hold it, so they read until they are dropped.
  readonly #file = TextFile.temporary();
  #end = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  // One buffer every write goes through (reads go through the file's own): a buffer per text made 280 MB of
  // garbage outside the JS heap, which V8 collected late, when the writers read the corpus's details back.
  #buffer = Buffer.allocUnsafe(2 * WRITE_BYTES);
  /** Per record added, in order: its text's offset (-1 for none) and byte length, and its filters. */
  readonly #offsets: number[] = [];
  readonly #lengths: number[] = [];
  readonly #filters: DetailFilters[] = [];

  constructor() {
    this.#file.closeWith(this);
  }

  /** Adds the next record's details (undefined: it has none). */
  add(details: DetailsText | undefined): void {
    if (details === undefined) {
      this.#offsets.push(-1);
      this.#lengths.push(0);
      this.#filters.push(NO_FILTERS);
      return;
    }
    const bytes = Buffer.byteLength(details.json);
    this.#offsets.push(this.#end + this.#pendingBytes);
    this.#lengths.push(bytes);
    this.#filters.push(details.filters);
    this.#pending.push(details.json);
    this.#pendingBytes += bytes;
    if (this.#pendingBytes >= WRITE_BYTES) this.#flush();
  }

  /** The details read back, the record at index i being the one added i-th in `order`. */
  inOrder(order: readonly number[]): CatalogDetails {
    this.#flush();
    const text = (index: number) => {
      const added = order[index]!;
      const offset = this.#offsets[added]!;
      if (offset < 0) return undefined;
      return this.#file.read(offset, this.#lengths[added]!);
    };
    return {
      text,
      byteLength: (index) => (this.#offsets[order[index]!]! < 0 ? -1 : this.#lengths[order[index]!]!),
      filters: (index) => this.#filters[order[index]!]!,
    };
  }

  /** Frees the file now rather than when the spool is collected. */
  close(): void {
    this.#file.close();
  }

  #flush(): void {
    const length = this.#pendingBytes;
    const buffer = this.#room(length);
    buffer.write(this.#pending.join(''), 0, 'utf8');
    this.#file.writeAt(buffer, length, this.#end);
    this.#end += length;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /** The write buffer, grown when a batch is larger than it. */
  #room(length: number): Buffer {
    if (length > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(length);
    return this.#buffer;
  }
}
