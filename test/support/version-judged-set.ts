// Writes test/fixtures/versions/judged-set.json: (record, product, version, expected) cases cut from the
// shipped catalog, `npx tsx test/support/version-judged-set.ts`. The expected answers come from the
// records' own fields by the plain rules below, written apart from src/core/versions (nothing of it is
// imported): a product that lists exactly one range and nothing else, with bounds of digits and dots, is
// probed at its bounds and one step either side of them, where the schema's rule is evident (inside: the
// range's status; outside: the product's defaultStatus, unknown when absent). rpm ranges are probed at
// their version and one release either side; git ranges at their commits. Hand-checked cases with
// changes[], `*` bounds and several entries are kept in judged-cases.json and copied in.
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { repositoryPath } from './paths.js';

interface Entry {
  version: string;
  status: string;
  versionType: string | null;
  lessThan: string | null;
  lessThanOrEqual: string | null;
  changes: unknown[];
}
interface Product {
  product: string | null;
  packageName: string | null;
  defaultStatus?: string | null;
  versionList?: Entry[];
}
interface CatalogEntry {
  id: string;
  details?: { affected: Product[]; adpAffected?: Product[] };
}
export interface JudgedCase {
  id: string;
  source: 'cna' | 'adp';
  product: number;
  name: string | null;
  versionType: string;
  version: string;
  expected: string;
  why: string;
}

const PER_TYPE: Readonly<Record<string, number>> = { semver: 150, custom: 150, rpm: 60, maven: 60, python: 30, git: 40 };
const NUMERIC = /^\d+(?:\.\d+)*$/;

const numbers = (text: string) => text.split('.').map(Number);
function plainCompare(a: string, b: string): number {
  const x = numbers(a);
  const y = numbers(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}
/** The version one step below or above in its last number (undefined below a last 0). */
function step(text: string, by: 1 | -1): string | undefined {
  const parts = numbers(text);
  const last = parts.length - 1;
  if (parts[last]! + by < 0) return undefined;
  parts[last] = parts[last]! + by;
  return parts.join('.');
}

function numericCases(entry: Entry, fallback: string): [string, string, string][] {
  const inclusive = entry.lessThanOrEqual !== null;
  const upper = (entry.lessThan ?? entry.lessThanOrEqual)!;
  // `0` is the schema's "no lower bound"; records converted from older formats write `n/a` or `unspecified`.
  const low = /^(?:0|n\/a|unspecified)$/i.test(entry.version) ? undefined : entry.version;
  if (!NUMERIC.test(upper) || (low !== undefined && !NUMERIC.test(low))) return [];
  if (low !== undefined && plainCompare(low, upper) > (inclusive ? 0 : -1)) return [];
  const cases: [string, string, string][] = [];
  if (low !== undefined) cases.push([low, entry.status, 'the range’s own version']);
  cases.push([upper, inclusive ? entry.status : fallback, inclusive ? 'exactly lessThanOrEqual' : 'exactly lessThan']);
  const below = step(upper, -1);
  if (below !== undefined && (low === undefined || plainCompare(below, low) >= 0))
    cases.push([below, entry.status, 'just below the upper bound']);
  cases.push([step(upper, 1)!, fallback, 'just above the upper bound']);
  const beforeLow = low === undefined ? undefined : step(low, -1);
  if (beforeLow !== undefined) cases.push([beforeLow, fallback, 'just below the range']);
  return cases;
}

/** rpm: `[epoch:]version-release`; one more or one less in the release's first number stays beside it. */
function rpmCases(entry: Entry, fallback: string): [string, string, string][] {
  const match = /^(\d+:)?([^-]+)-(\d+)(.*)$/.exec(entry.version);
  if (!match || entry.lessThan !== '*') return [];
  const [, epoch = '', version, release, rest] = match;
  const at = (n: number) => `${epoch}${version}-${n}${rest}`;
  const cases: [string, string, string][] = [
    [entry.version, entry.status, 'the range’s own version'],
    [at(Number(release) + 1), entry.status, 'a later release of it'],
  ];
  if (Number(release) > 0) cases.push([at(Number(release) - 1), fallback, 'an earlier release, below the range']);
  return cases;
}

function gitCases(product: Product): [string, string, string][] {
  const entries = product.versionList ?? [];
  if (entries.some((e) => e.changes.length > 0 || e.versionType !== 'git')) return [];
  const first = entries[0]!;
  const sameStart = entries.every((e) => e.version === first.version && e.status === first.status);
  const cases: [string, string, string][] = [];
  if (sameStart && first.version !== '0') cases.push([first.version, first.status, 'the first commit of its ranges']);
  if (first.lessThan !== null && entries.length > 1)
    cases.push([first.lessThan, 'unknown', 'a fix commit: the other ranges need the history']);
  cases.push(['6.1.5', 'unknown', 'a release number: git ranges cannot place it']);
  return cases;
}

function casesOf(product: Product): { type: string; cases: [string, string, string][] } | undefined {
  const entries = product.versionList ?? [];
  if (entries.length === 0) return undefined;
  const fallback = product.defaultStatus ?? 'unknown';
  if (entries.every((e) => e.versionType === 'git')) return { type: 'git', cases: gitCases(product) };
  if (entries.length !== 1) return undefined;
  const entry = entries[0]!;
  const type = entry.versionType?.toLowerCase() ?? '';
  if (entry.lessThan === null && entry.lessThanOrEqual === null) return undefined;
  // A change at or above the upper bound never applies inside the range (Patchstack's records write one).
  const upper = entry.lessThan ?? entry.lessThanOrEqual ?? '';
  const inert = (change: { at: string }) => NUMERIC.test(change.at) && NUMERIC.test(upper) && plainCompare(change.at, upper) >= 0;
  if (!(entry.changes as { at: string }[]).every(inert)) return undefined;
  if (type === 'rpm') return { type, cases: rpmCases(entry, fallback) };
  if (!(type in PER_TYPE)) return undefined;
  return { type, cases: numericCases(entry, fallback) };
}

function main(): void {
  const catalog = JSON.parse(gunzipSync(readFileSync(repositoryPath('data/cve-records.json.gz'))).toString('utf8')) as {
    records: CatalogEntry[];
  };
  const taken = new Map<string, JudgedCase[]>();
  const records = [...catalog.records].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const record of records) {
    for (const source of ['cna', 'adp'] as const) {
      const products = (source === 'cna' ? record.details?.affected : record.details?.adpAffected) ?? [];
      products.forEach((product, index) => {
        const found = casesOf(product);
        if (!found) return;
        const list = taken.get(found.type) ?? [];
        if (list.length >= PER_TYPE[found.type]!) return;
        for (const [version, expected, why] of found.cases) {
          list.push({
            id: record.id,
            source,
            product: index,
            name: product.product ?? product.packageName,
            versionType: found.type,
            version,
            expected,
            why,
          });
        }
        taken.set(found.type, list);
      });
    }
  }
  const hand = JSON.parse(readFileSync(repositoryPath('test/fixtures/versions/judged-cases.json'), 'utf8')) as { cases: JudgedCase[] };
  const cases = [...[...taken.values()].flat(), ...hand.cases];
  const about =
    'Judged version checks over the shipped catalog (data/cve-records.json.gz), written by test/support/version-judged-set.ts from ' +
    "the records' own fields (see its header) plus the hand-checked cases of judged-cases.json. Each case: the record, the product " +
    '(its list and index), a version, and the status the CVE JSON 5 rules give it.';
  writeFileSync(repositoryPath('test/fixtures/versions/judged-set.json'), `${JSON.stringify({ about, cases }, null, 1)}\n`);
  const counts = Object.fromEntries(
    [...new Set(cases.map((c) => c.versionType))].map((t) => [t, cases.filter((c) => c.versionType === t).length]),
  );
  console.log(`${cases.length} cases`, counts);
}

main();
