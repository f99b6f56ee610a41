// Which of a record's products a project's check reads: those named like the project (its canonical name
// or another spelling), or all of them when none is. VersionIndex.checkProject and the range index
// (range-eval.ts) select them with the same function.
import type { AffectedProduct } from '../../contract/index.js';

/** Name keys made, by name: a check reads the names of every product of a record, and a few thousand names recur. */
const KEYS_KEPT = 20_000;
const keys = new Map<string, string>();

/** Lower case, `_` as a space: how a product's name is compared with a project's names (CISA-ADP writes CPE tokens). */
export function nameKey(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    key = name.toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
    if (keys.size >= KEYS_KEPT) keys.clear();
    keys.set(name, key);
  }
  return key;
}

/**
 * Whether a product is one of the names given (a project and its other spellings). A record's project is
 * named from one of its products; a record whose products all name others (a vendor, a repository) is
 * checked on all of them.
 */
export function namedIn(names: ReadonlySet<string>): (product: AffectedProduct) => boolean {
  return (product) => [product.product, product.packageName].some((name) => name !== null && names.has(nameKey(name)));
}

/** The name keys of a project: its canonical name and its other spellings. */
export function projectNameKeys(project: string, aliases: readonly string[]): ReadonlySet<string> {
  return new Set([project, ...aliases].map(nameKey));
}
