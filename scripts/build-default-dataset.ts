// Builds the embedded default dataset, data/cve-records.json, from the CVE 5.x sample zip plus the
// operator's list of assigned ids without a public record (data/assigned-ids.txt). Deterministic: two
// runs on the same inputs write byte-identical output.
//
//   npx tsx scripts/build-default-dataset.ts [path/to/cvelist.zip]
//
// The zip path argument is resolved against the current directory; the default,
// ../shared/data/cvelist-sample.zip, against the repository root.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from 'typebox/value';
import { CVE_ID_REGEX, CatalogFile } from '../src/contract/index.js';
import type { CatalogFile as CatalogFileType, CatalogRecord } from '../src/contract/index.js';
import { SKIP_REASONS, mapCveRecord, type SkipReason } from '../src/import/cve-json5.js';
import { readZipJsonEntries } from '../src/import/zip-entries.js';

/** The sample's snapshot date, fixed so that the output does not depend on the day of the build. */
const LAST_VERIFIED = '2025-01-24';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ZIP = resolve(REPO_ROOT, '../shared/data/cvelist-sample.zip');
const ASSIGNED_IDS_FILE = join(REPO_ROOT, 'data', 'assigned-ids.txt');
const OUTPUT_FILE = join(REPO_ROOT, 'data', 'cve-records.json');

type ImportSkipReason = SkipReason | 'duplicate' | 'unreadable-entry' | 'invalid-json';
const IMPORT_SKIP_REASONS: readonly ImportSkipReason[] = [
  ...SKIP_REASONS,
  'duplicate',
  'unreadable-entry',
  'invalid-json',
];

class BuildError extends Error {}

interface AssignedId {
  id: string;
  project: string;
  line: number;
}

/** Parses `CVE-YYYY-N<TAB>project` lines; '#' at line start or after whitespace starts a comment. */
function parseAssignedIds(text: string, file: string): AssignedId[] {
  const out: AssignedId[] = [];
  const seen = new Map<string, number>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/(^|\s)#.*$/, '').trim();
    if (content === '') return;
    const tab = content.indexOf('\t');
    const id = (tab === -1 ? content : content.slice(0, tab)).trim();
    const project = tab === -1 ? '' : content.slice(tab + 1).replace(/\s+/g, ' ').trim();
    if (!CVE_ID_REGEX.test(id)) {
      problems.push(`${file}:${line}: ${JSON.stringify(id)} is not a CVE id`);
    } else if (project === '') {
      problems.push(`${file}:${line}: ${id} has no project (expected "<id><TAB><project>")`);
    } else if (seen.has(id)) {
      problems.push(`${file}:${line}: ${id} is already listed on line ${seen.get(id)}`);
    } else {
      seen.set(id, line);
      out.push({ id, project, line });
    }
  });
  if (problems.length > 0) throw new BuildError(problems.join('\n'));
  return out;
}

function idKey(id: string): [number, number] {
  const [, year = '0', seq = '0'] = id.split('-');
  return [Number(year), Number(seq)];
}

/** Year descending, then sequence number descending (numeric); the id string breaks any tie. */
function compareIds(a: string, b: string): number {
  const [ya, sa] = idKey(a);
  const [yb, sb] = idKey(b);
  return yb - ya || sb - sa || (a < b ? -1 : a > b ? 1 : 0);
}

/** Serialises one record with a fixed key order, whatever order its object was built in. */
function recordJson(r: CatalogRecord): string {
  const ordered: CatalogRecord = { id: r.id, project: r.project, status: r.status, url: r.url };
  if (r.summary !== undefined) ordered.summary = r.summary;
  if (r.published !== undefined) ordered.published = r.published;
  return JSON.stringify(ordered);
}

/** One record per line so that diffs of the dataset stay readable. */
function catalogJson(file: CatalogFileType): string {
  const head = `{"lastVerified":${JSON.stringify(file.lastVerified)},"records":[`;
  if (file.records.length === 0) return `${head}]}\n`;
  return `${head}\n${file.records.map(recordJson).join(',\n')}\n]}\n`;
}

async function main(): Promise<void> {
  const zipArg = process.argv[2];
  const zipPath = zipArg !== undefined ? resolve(zipArg) : DEFAULT_ZIP;

  const assigned = parseAssignedIds(await readFile(ASSIGNED_IDS_FILE, 'utf8'), 'data/assigned-ids.txt');

  let read = 0;
  let nameMismatches = 0;
  const skipped = new Map<ImportSkipReason, number>(IMPORT_SKIP_REASONS.map((r) => [r, 0]));
  const examples = new Map<ImportSkipReason, string[]>();
  const countSkip = (reason: ImportSkipReason, detail: string): void => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    const list = examples.get(reason) ?? [];
    if (list.length < 3) list.push(detail);
    examples.set(reason, list);
  };
  const idsInSample = new Set<string>(); // every id the zip has a file for, imported or not
  const byId = new Map<string, CatalogRecord>();

  for await (const entry of readZipJsonEntries(zipPath)) {
    read += 1;
    const fileId = basename(entry.name, '.json');
    if (CVE_ID_REGEX.test(fileId)) idsInSample.add(fileId);
    if ('error' in entry) {
      countSkip('unreadable-entry', `${entry.name}: ${entry.error}`);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(entry.text);
    } catch (err) {
      countSkip('invalid-json', `${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    const result = mapCveRecord(json);
    const meta = (json as { cveMetadata?: { cveId?: unknown } } | null)?.cveMetadata;
    const metaId = typeof meta?.cveId === 'string' ? meta.cveId : undefined;
    if (metaId !== undefined) {
      idsInSample.add(metaId);
      if (metaId !== fileId) nameMismatches += 1;
    }
    if (!result.ok) {
      countSkip(result.reason, `${entry.name}: ${result.detail}`);
      continue;
    }
    if (byId.has(result.record.id)) {
      countSkip('duplicate', `${entry.name}: ${result.record.id} already imported`);
      continue;
    }
    byId.set(result.record.id, result.record);
  }
  const imported = byId.size;

  const clashes = assigned.filter((a) => idsInSample.has(a.id));
  if (clashes.length > 0) {
    throw new BuildError(
      `data/assigned-ids.txt lists ids that have a record in ${zipPath}:\n` +
        clashes.map((a) => `  line ${a.line}: ${a.id}`).join('\n'),
    );
  }
  for (const a of assigned) {
    byId.set(a.id, { id: a.id, project: a.project, status: 'assigned-no-public-record', url: null });
  }

  const records = [...byId.values()].sort((a, b) => compareIds(a.id, b.id));
  const catalog: CatalogFileType = { lastVerified: LAST_VERIFIED, records };
  if (!Value.Check(CatalogFile, catalog)) {
    const errors = [...Value.Errors(CatalogFile, catalog)].slice(0, 10);
    throw new BuildError(
      'the built catalog does not match the CatalogFile schema:\n' +
        errors.map((e) => `  ${e.instancePath}: ${e.message}`).join('\n'),
    );
  }

  const text = catalogJson(catalog);
  const tmp = `${OUTPUT_FILE}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, OUTPUT_FILE);

  const statusCounts = { public: 0, 'assigned-no-public-record': 0 };
  for (const r of records) statusCounts[r.status] += 1;
  const totalSkipped = [...skipped.values()].reduce((s, n) => s + n, 0);
  const lines = [
    `zip:       ${zipPath}`,
    `read:      ${read} .json entries`,
    `imported:  ${imported}`,
    `skipped:   ${totalSkipped}`,
    ...IMPORT_SKIP_REASONS.map((r) => `  ${r.padEnd(18)} ${skipped.get(r) ?? 0}`),
    `assigned:  ${assigned.length} from data/assigned-ids.txt`,
    `records:   ${records.length} (public ${statusCounts.public}, assigned-no-public-record ${statusCounts['assigned-no-public-record']})`,
    `written:   data/cve-records.json, ${Buffer.byteLength(text, 'utf8')} bytes, lastVerified ${LAST_VERIFIED}`,
  ];
  if (nameMismatches > 0) lines.push(`warning:   ${nameMismatches} entries whose file name differs from cveMetadata.cveId`);
  for (const [reason, list] of examples) {
    if (reason === 'rejected' || reason === 'no-project-name') continue; // expected, and numerous
    lines.push(`e.g. ${reason}:`, ...list.map((d) => `  ${d}`));
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(`build-default-dataset: ${err instanceof Error ? err.message : String(err)}`);
  if (!(err instanceof BuildError) && err instanceof Error && err.stack) console.error(err.stack);
  process.exitCode = 1;
});
