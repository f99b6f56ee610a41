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
  /** Bytes written to the file so far. */
  #end = 0;
  // One buffer every text is encoded into where it lands, written out when full (reads go through the
  // file's own): a buffer per text made 280 MB of garbage outside the JS heap, which V8 collected late; the
  // texts of a megabyte joined into one string first cost twenty times the encoding (docs/PERFORMANCE.md,
  // "The lead's work, stop 36").
  #buffer = Buffer.allocUnsafe(WRITE_BYTES);
  /** Bytes of the buffer not yet written. */
  #used = 0;
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
    if (this.#used + bytes > this.#buffer.length) {
      this.#flush();
      // A text larger than the buffer gets a buffer of its size.
      if (bytes > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(bytes);
    }
    this.#offsets.push(this.#end + this.#used);
    this.#lengths.push(bytes);
    this.#filters.push(details.filters);
    this.#used += this.#buffer.write(details.json, this.#used);
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
    this.#file.writeAt(this.#buffer, this.#used, this.#end);
    this.#end += this.#used;
    this.#used = 0;
  }
}
