// A record's answer for a version of a product: each affected product it lists is checked (version-check.ts),
// and their answers combine. A record may describe one product twice in two numbering schemes (the Linux
// kernel's CNA lists git commits in one entry and release numbers in another): a product that cannot place
// the version at all has no say. The CNA's products decide; an ADP's (CISA-ADP's, by CPE) only when none of
// the CNA's can place the version.
import type { AffectedProduct, AffectedVersion, RecordDetails, VersionStatus } from '../../contract/index.js';
import { checkProduct, type ProductVerdict } from './version-check.js';

export type ProductSource = 'cna' | 'adp';

export interface RecordVerdict {
  readonly status: VersionStatus;
  /** The product that decided, when one did: which list, its index there, and the entry that matched (null: its default). */
  readonly source: ProductSource | null;
  readonly product: number | null;
  readonly entry: number | null;
}

export const UNKNOWN: RecordVerdict = Object.freeze({ status: 'unknown', source: null, product: null, entry: null });

/** The products a check reads: both lists of a record's details. */
export type CheckedDetails = Pick<RecordDetails, 'affected' | 'adpAffected'>;

/**
 * The record's status for a version. `selects` picks the products meant (those naming a project, a package,
 * a CPE); every product when absent. An `affected` answer wins over `unaffected`, and `unaffected` needs
 * every product that can place the version to say so.
 */
export function checkRecord(details: CheckedDetails, version: string, selects?: (product: AffectedProduct) => boolean): RecordVerdict {
  return checkRecordBy(details, (product) => (selects && !selects(product) ? undefined : checkProduct(product, version)));
}

/**
 * The record's status from each product's verdict, as checkRecord combines them; `verdictOf` is undefined
 * for a product not meant. For checks that read more than the ranges (a CPE name's own version).
 */
export function checkRecordBy(details: CheckedDetails, verdictOf: (product: AffectedProduct) => ProductVerdict | undefined): RecordVerdict {
  for (const source of ['cna', 'adp'] as const) {
    const products = (source === 'cna' ? details.affected : details.adpAffected) ?? [];
    const verdict = combine(products, source, verdictOf);
    if (verdict !== undefined) return verdict;
  }
  return UNKNOWN;
}

function combine(
  products: readonly AffectedProduct[],
  source: ProductSource,
  verdictOf: (product: AffectedProduct) => ProductVerdict | undefined,
): RecordVerdict | undefined {
  let unaffected: RecordVerdict | undefined;
  let unknown: RecordVerdict | undefined;
  for (const [index, product] of products.entries()) {
    const verdict = verdictOf(product);
    if (verdict === undefined || !verdict.applicable) continue;
    const found: RecordVerdict = { status: verdict.status, source, product: index, entry: verdict.entry };
    if (verdict.status === 'affected') return found;
    if (verdict.status === 'unaffected') unaffected ??= found;
    else unknown ??= found;
  }
  return unknown ?? unaffected;
}

/** An entry in words, as a page says why a version matched: `affected from 3.0.0 before 3.0.15 (semver)`. */
export function describeEntry(entry: AffectedVersion): string {
  const type = entry.versionType === null ? '' : ` (${entry.versionType})`;
  const from = entry.version === '0' ? '' : ` from ${entry.version}`;
  if (entry.lessThan !== null) return `${entry.status}${from} before ${entry.lessThan}${type}`;
  if (entry.lessThanOrEqual !== null) return `${entry.status}${from} through ${entry.lessThanOrEqual}${type}`;
  return `${entry.status} ${entry.version}${type}`;
}

/** Why a record gave its answer, in words: the entry that matched, the product's default, or what is missing. */
export function describeVerdict(details: CheckedDetails, verdict: RecordVerdict): string {
  if (verdict.source === null || verdict.product === null) return 'no affected product of the record can place this version';
  const product = (verdict.source === 'cna' ? details.affected : details.adpAffected)?.[verdict.product];
  const name = product?.product ?? product?.packageName ?? product?.vendor ?? 'the product';
  const by = verdict.source === 'adp' ? ' (as an ADP states it)' : '';
  if (verdict.entry === null) {
    // Affected with no entry and another default: a CPE name of the product names the very version.
    if (verdict.status === 'affected' && product?.defaultStatus !== 'affected')
      return `${name}: a CPE name of ${name} names this version${by}`;
    return verdict.status === 'unknown' && product?.defaultStatus != null
      ? `${name}: a range of ${name} cannot be compared with this version${by}`
      : `${name}: no range names this version, and the record says otherwise ${product?.defaultStatus ?? 'unknown'}${by}`;
  }
  const entry = product?.versionList?.[verdict.entry];
  return entry === undefined ? name : `${name}: ${describeEntry(entry)}${by}`;
}
