// A cvelistV5-shaped release of the whole corpus's size, built from the shared sample: each sample record
// is used again under new ids (CVE-YYYY-N becomes CVE-YYYY-(N + copy × 1,000,000), in its text wherever
// the id appears), so text, sizes and quirks are real. Laid out as an hourly release is: an outer
// `…_all_CVEs_at_midnight.zip.zip` holding `cves.zip`, holding `cves/<year>/<n>xxx/<id>.json`.
// Deterministic (fixed order and compression, no times), and cached under bench/.cache by its parameters.
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { readZipEntries, unpackText } from '../src/import/zip-entries.js';
import { ZipWriter } from '../test/support/zip-writer.js';

export const SAMPLE_ZIP = fileURLToPath(new URL('../../shared/data/cvelist-sample.zip', import.meta.url));
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));
/** The release day the archive's name gives. */
const RELEASE_DAY = '2026-11-23';

export interface Corpus {
  /** The release zip (a zip holding cves.zip). */
  readonly path: string;
  readonly records: number;
  /** Records whose state is PUBLISHED: what an import must serve, every one. */
  readonly published: number;
  readonly bytes: number;
}

interface SampleRecord {
  readonly id: string;
  readonly year: string;
  readonly number: number;
  readonly text: string;
  readonly published: boolean;
  /** The id wherever it appears in the text (not as the start of a longer number). */
  readonly idPattern: RegExp;
}

async function readSample(): Promise<SampleRecord[]> {
  const records: SampleRecord[] = [];
  for await (const entry of readZipEntries(SAMPLE_ZIP)) {
    if (!('packed' in entry)) continue;
    const text = unpackText(entry.packed);
    const match = /(CVE-(\d{4})-(\d+))\.json$/.exec(entry.name);
    if (!match) continue;
    const state = /"state"\s*:\s*"([A-Z]+)"/.exec(text)?.[1];
    records.push({
      id: match[1]!,
      year: match[2]!,
      number: Number(match[3]),
      text,
      published: state === 'PUBLISHED',
      idPattern: new RegExp(`${match[1]}(?!\\d)`, 'g'),
    });
  }
  return records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Ids of every `step`-th published record among the corpus's first `count` records, in id order: the
 * sample's own ids, which the corpus's first copy keeps.
 */
export async function publishedIds(count: number, step: number): Promise<string[]> {
  return (await readSample())
    .slice(0, count)
    .filter((record) => record.published)
    .filter((_, i) => i % step === 0)
    .map((record) => record.id);
}

/** The i-th record of the corpus: the sample's records in order, then again under new ids, and so on. */
function corpusRecord(sample: readonly SampleRecord[], i: number): { name: string; source: SampleRecord; text: () => string } {
  const source = sample[i % sample.length]!;
  const copy = Math.floor(i / sample.length);
  const number = source.number + copy * 1_000_000;
  const id = `CVE-${source.year}-${String(number).padStart(4, '0')}`;
  return {
    name: `cves/${source.year}/${Math.floor(number / 1000)}xxx/${id}.json`,
    source,
    text: () => (copy === 0 ? source.text : source.text.replace(source.idPattern, id)),
  };
}

/** Builds (or finds in the cache) the release zip of `count` records. */
export async function buildCorpus(count: number, log: (line: string) => void = () => {}): Promise<Corpus> {
  const key = `${count}-${statSync(SAMPLE_ZIP).size}`;
  const path = `${CACHE}${RELEASE_DAY}_all_CVEs_at_midnight-${key}.zip.zip`;
  const manifest = `${path}.json`;
  if (existsSync(path) && existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as Corpus;

  await mkdir(CACHE, { recursive: true });
  const started = performance.now();
  const sample = await readSample();
  let published = 0;
  const innerPath = `${CACHE}cves-${key}.zip.tmp`;
  const inner = openSync(innerPath, 'w');
  const innerZip = new ZipWriter((bytes) => writeSync(inner, bytes));
  for (let i = 0; i < count; i++) {
    const record = corpusRecord(sample, i);
    if (record.source.published) published++;
    innerZip.add({ name: record.name, data: record.text() });
  }
  innerZip.finish();
  closeSync(inner);

  const outerTmp = `${path}.tmp`;
  const outer = openSync(outerTmp, 'w');
  const outerZip = new ZipWriter((bytes) => writeSync(outer, bytes));
  outerZip.add({ name: 'cves.zip', data: readFileSync(innerPath), store: true });
  outerZip.finish();
  closeSync(outer);
  await rm(innerPath);
  await rename(outerTmp, path);
  const corpus: Corpus = { path, records: count, published, bytes: statSync(path).size };
  await writeFile(manifest, JSON.stringify(corpus));
  log(`built ${path} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return corpus;
}
