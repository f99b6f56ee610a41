// Issue 24, items 3 and 10: `cve-records sync` as an operator runs it, given release assets that are
// hostile or damaged. The rule: hostile or damaged structure (not a zip, cut short, a bomb, an entry lying
// about its size or its checksum, overlapping entries, unsafe paths, symbolic links), at any nesting level,
// refuses the whole asset: exit 1, catalog and cursor unchanged. A bad record inside a sound archive (not
// JSON, not UTF-8, over the size limit, a zip nested beyond the limit) is skipped, named in the step's
// report, and the step goes on.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../src/contract/index.js';
import { runCli } from '../support/cli.js';
import { baselineBytes, baselineName, cveJson5, treePath, type UpstreamRecord, writeBaseline } from '../support/upstream.js';
import { type ZipEntrySpec, zipBytes } from '../support/zip-writer.js';

const D1 = '2026-11-20';
const D2 = '2026-11-21';
const DELTA = `${D1}_delta_CVEs_at_0100Z.zip`;

const record = (n: number, updated = '2026-11-20T00:30:00.000Z'): UpstreamRecord => ({
  id: `CVE-2026-${n}`,
  product: `widget${n}`,
  vendor: 'acme',
  updated,
});
const A = record(1001, '2026-11-19T10:00:00.000Z');
const B = record(1002, '2026-11-19T11:00:00.000Z');
/** What each hostile asset also carries: a sound record that must not be applied with it. */
const N = record(2001);

const inDelta = (r: UpstreamRecord): ZipEntrySpec => ({ name: `deltaCves/${r.id}.json`, data: cveJson5(r) });
const inTree = (r: UpstreamRecord): ZipEntrySpec => ({ name: treePath(r.id), data: cveJson5(r) });
const baseline = (inner: Buffer) => ({ name: baselineName(D2), bytes: baselineBytes(inner) });
const delta = (entries: ZipEntrySpec[]) => ({ name: DELTA, bytes: zipBytes(entries) });
const cut = (bytes: Buffer) => bytes.subarray(0, bytes.length - 40);
const TWO_GIB = 2 ** 31;

const syncArgs = (upstream: string, out: string) => ['sync', upstream, '--catalog', join(out, 'catalog.json.gz'), '--workers', '0'];
const catalogOf = (out: string) => JSON.parse(gunzipSync(readFileSync(join(out, 'catalog.json.gz'))).toString('utf8')) as CatalogFile;

/** A catalog synced from the D1 baseline, which every case starts from. */
let synced: string;
beforeAll(async () => {
  const upstream = mkdtempSync(join(tmpdir(), 'upstream-'));
  writeBaseline(upstream, D1, [A, B]);
  synced = mkdtempSync(join(tmpdir(), 'synced-'));
  const run = await runCli(syncArgs(upstream, synced));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(catalogOf(synced).sync).toMatchObject({ baseline: D1, delta: `${D1}T00:00Z` });
}, 60_000);

/** Runs a sync with this asset published beside the D1 baseline, from a copy of the synced catalog. */
async function syncWith(asset: { name: string; bytes: Buffer }) {
  const upstream = mkdtempSync(join(tmpdir(), 'upstream-'));
  writeBaseline(upstream, D1, [A, B]);
  writeFileSync(join(upstream, asset.name), asset.bytes);
  const out = mkdtempSync(join(tmpdir(), 'sync-'));
  copyFileSync(join(synced, 'catalog.json.gz'), join(out, 'catalog.json.gz'));
  const run = await runCli(syncArgs(upstream, out));
  return { ...run, out };
}

const refusals: [what: string, asset: () => { name: string; bytes: Buffer }, says: RegExp][] = [
  // Item 3: the baseline's inner cves.zip.
  ['the inner cves.zip of a baseline is not a zip', () => baseline(Buffer.from('not a zip at all, '.repeat(20))), /cves\.zip/],
  ['the inner cves.zip is cut short', () => baseline(cut(zipBytes([inTree(N), inTree(record(2002))]))), /cves\.zip/],
  [
    'the inner cves.zip is a bomb (an entry declaring 2 GiB)',
    () => baseline(zipBytes([inTree(N), { ...inTree(record(2002)), declaredSize: TWO_GIB }])),
    /in cves\.zip: entry declares 2147483648 bytes.*CVE-2026-2002\.json/,
  ],
  [
    'the inner cves.zip holds an entry escaping with ..',
    () => baseline(zipBytes([inTree(N), { ...inTree(record(2002)), name: '../CVE-2026-2002.json' }])),
    /\.\./,
  ],
  [
    'the inner cves.zip holds entries sharing one body',
    () => baseline(zipBytes([inTree(N), { name: treePath('CVE-2026-2003'), data: '', sharesBodyOf: treePath(N.id) }])),
    /overlap/,
  ],
  // Item 10: a delta's structure.
  [
    'a delta that is not a zip',
    () => ({ name: DELTA, bytes: Buffer.from('<html>502 Bad Gateway</html>') }),
    /not a zip|end of central directory/i,
  ],
  [
    'a delta cut short',
    () => ({ name: DELTA, bytes: cut(zipBytes([inDelta(N), inDelta(record(2002))])) }),
    /end of central directory|cut short/i,
  ],
  ['a delta entry declaring 2 GiB', () => delta([inDelta(N), { ...inDelta(record(2002)), declaredSize: TWO_GIB }]), /2147483648/],
  [
    'a delta entry inflating to more than it declares',
    () => delta([inDelta(N), { ...inDelta(record(2002)), declaredSize: 100 }]),
    /declared 100/,
  ],
  [
    'a delta entry inflating to less than it declares',
    () => delta([inDelta(N), { ...inDelta(record(2002)), declaredSize: Buffer.byteLength(cveJson5(record(2002))) + 50 }]),
    /not the \d+ its directory declares/,
  ],
  ['a delta entry whose checksum is wrong', () => delta([inDelta(N), { ...inDelta(record(2002)), crc: 0xdeadbeef }]), /CRC-32/],
  [
    'two delta entries overlapping',
    () => delta([inDelta(N), { name: 'deltaCves/CVE-2026-2003.json', data: '', sharesBodyOf: inDelta(N).name }]),
    /overlap/,
  ],
  ['a delta entry escaping with ..', () => delta([inDelta(N), { ...inDelta(record(2002)), name: 'deltaCves/../../x.json' }]), /\.\./],
  ['a delta entry with an absolute path', () => delta([inDelta(N), { ...inDelta(record(2002)), name: '/etc/cron.d/x.json' }]), /absolute/],
  ['a delta entry with a drive path', () => delta([inDelta(N), { ...inDelta(record(2002)), name: 'C:/x.json' }]), /absolute/],
  [
    'a delta entry that is a symbolic link',
    () => delta([inDelta(N), { name: 'deltaCves/CVE-2026-2002.json', data: '/etc/passwd', store: true, symlink: true }]),
    /symbolic link/,
  ],
];

describe('a release asset with hostile or damaged structure is refused whole (issue 24, items 3 and 10)', () => {
  it.each(refusals)('%s: exit 1, catalog and cursor unchanged', async (_what, asset, says) => {
    const hostile = asset();
    const run = await syncWith(hostile);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const stopped = run.stdout.split('\n').find((line) => line.includes('sync stopped:'));
    expect(stopped, run.stdout).toContain(`${hostile.name} refused`);
    expect(stopped).toMatch(says);
    expect(stopped).toContain('catalog and cursor unchanged');
    expect(readFileSync(join(run.out, 'catalog.json.gz')).equals(readFileSync(join(synced, 'catalog.json.gz')))).toBe(true);
  });
});

describe('a bad record inside a sound asset is skipped and named, and the step goes on (issue 24)', () => {
  it('applies the sound records of the delta, moves the cursor, and names each record it skipped', async () => {
    const tooDeep = zipBytes([{ name: 'b.zip', data: zipBytes([{ name: 'c.zip', data: zipBytes([inDelta(record(2009))]) }]) }]);
    const run = await syncWith(
      delta([
        inDelta(N),
        { name: 'deltaCves/CVE-2026-3001.json', data: '{"dataType": "CVE_RECORD", ' },
        { name: 'deltaCves/CVE-2026-3002.json', data: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
        // Over the 64 MiB a record may be: skipped unread (it deflates to a few KB, so it is no bomb).
        { name: 'deltaCves/CVE-2026-3003.json', data: Buffer.alloc(65 * 1024 * 1024, 0x20) },
        { name: 'deltaCves/deep.zip', data: tooDeep },
      ]),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const catalog = catalogOf(run.out);
    expect(catalog.records.map((r) => r.id).sort()).toEqual([A.id, B.id, N.id]);
    expect(catalog.sync).toMatchObject({ baseline: D1, delta: `${D1}T01:00Z` });
    expect(run.stdout).toMatch(new RegExp(`applied ${DELTA} in \\d+ ms \\(CPU \\d+ ms\\): .*4 bad records skipped`));
    const skipped: [name: string, why: string][] = [
      ['deltaCves/CVE-2026-3001.json', 'invalid-json'],
      ['deltaCves/CVE-2026-3002.json', 'unreadable-entry: not valid UTF-8'],
      ['deltaCves/CVE-2026-3003.json', 'unreadable-entry: entry is 68157440 bytes, over the 67108864 byte limit'],
      ['deltaCves/deep.zip!/b.zip!/c.zip', 'unreadable-entry: zip nested deeper than the nesting limit'],
    ];
    for (const [name, why] of skipped) {
      expect(run.stdout).toMatch(new RegExp(`skipped .*${DELTA}!/${name.replaceAll('.', '\\.')}: ${why}`));
    }
  });
});
