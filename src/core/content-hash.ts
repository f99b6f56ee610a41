// The content version of a catalog: a hash that the same records give whatever their source, their order or
// the path that made them (a catalog read whole, a table loaded, a snapshot patched by a change). It is a
// multiset hash: each record hashes on its own (64 bits of SHA-256 of its fields and details) and the
// version hashes the sum of those modulo 2^64, with lastVerified and the removals. A change then costs only
// its records: the sum loses the old hashes of what it replaced or removed and gains the new ones.
import { createHash } from 'node:crypto';
import type { CatalogRecord, CatalogRemoval } from '../contract/index.js';

/** What the content hash reads of a record besides its details. */
export type HashedFields = Pick<CatalogRecord, 'id' | 'project' | 'status' | 'url' | 'summary' | 'published' | 'modified' | 'changed'>;

const MASK = (1n << 64n) - 1n;

/**
 * One record's hash, from its fields and its details as detailsJson writes them: the contract's field
 * order, whatever order a source kept the keys in (jsonb keeps its own), so equal details hash alike.
 */
export function recordHash(r: HashedFields, details: string | undefined): bigint {
  const fields = [r.id, r.project, r.status, r.url, r.summary ?? null, r.published ?? null, r.modified ?? null];
  // Hashed only where present, so a record without them hashes as it did before they existed.
  if (r.changed !== undefined) fields.push(r.changed);
  if (details !== undefined) fields.push(details);
  return createHash('sha256').update(JSON.stringify(fields)).digest().readBigUInt64LE(0);
}

/** The hash of one removal, summed like a record's. */
export function removalHash(removal: CatalogRemoval): bigint {
  return createHash('sha256')
    .update(JSON.stringify(['removed', removal.id, removal.modified]))
    .digest()
    .readBigUInt64LE(0);
}

/** The sum of hashes modulo 2^64, after adding `plus` and taking `minus` away. */
export function sumHashes(sum: bigint, plus: Iterable<bigint>, minus: Iterable<bigint> = []): bigint {
  let total = sum;
  for (const hash of plus) total += hash;
  for (const hash of minus) total -= hash;
  return total & MASK;
}

/** The version string (16 base64url characters) of a catalog whose records' hashes sum to `records`. */
export function versionOf(lastVerified: string, size: number, records: bigint, removed: readonly CatalogRemoval[]): string {
  const removals = sumHashes(0n, removed.map(removalHash));
  return createHash('sha256')
    .update(JSON.stringify([lastVerified, size, records.toString(16), removed.length, removals.toString(16)]))
    .digest('base64url')
    .slice(0, 16);
}

/**
 * The content hash of a catalog, fed its records one by one in any order, then its removals: a source that
 * keeps its records' details out of memory feeds each record's as it reads them back. Keeps each record's
 * hash, in the order added, for the snapshot (see Snapshot.hashes) when the records were added in listing order.
 */
export class ContentHash {
  readonly #hashes: bigint[] = [];
  #sum = 0n;

  constructor(readonly lastVerified: string) {}

  add(r: HashedFields, details: string | undefined): void {
    const hash = recordHash(r, details);
    this.#hashes.push(hash);
    this.#sum = (this.#sum + hash) & MASK;
  }

  /** The sum of the records' hashes modulo 2^64. */
  get sum(): bigint {
    return this.#sum;
  }

  /** Each record's hash, in the order added. */
  hashes(): BigUint64Array {
    return BigUint64Array.from(this.#hashes);
  }

  /** The version, once every record is added. */
  version(removed: readonly CatalogRemoval[] = []): string {
    return versionOf(this.lastVerified, this.#hashes.length, this.#sum, removed);
  }
}

/**
 * The content hash of records given in listing order, and their removals; `details` gives the details text
 * (detailsJson) of the record at a position of `sorted`.
 */
export function contentVersion(
  lastVerified: string,
  sorted: readonly HashedFields[],
  details: (position: number) => string | undefined,
  removed: readonly CatalogRemoval[] = [],
): string {
  return contentHashOf(lastVerified, sorted, details).version(removed);
}

/** The ContentHash of records in listing order (see contentVersion). */
export function contentHashOf(
  lastVerified: string,
  sorted: readonly HashedFields[],
  details: (position: number) => string | undefined,
): ContentHash {
  const hash = new ContentHash(lastVerified);
  sorted.forEach((r, position) => {
    hash.add(r, details(position));
  });
  return hash;
}
