// The catalog's checks are compiled when the service is built (scripts/generate-checks.ts writes them from
// the contract's CATALOG_CHECKS): they must accept and reject exactly what the contract's schemas compiled
// at run time do, with the same errors. Records of the shipped catalog, each changed at every place it has
// (a value of another type, a string for a number, a key removed, a key added), are put to both.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { findCatalogProblems, recordProblems } from '../../src/catalog/catalog-validation.js';
import { catalogRecord, catalogTop } from '../../src/contract/catalog-checks.generated.js';
import { CATALOG_CHECKS, type CatalogFile, createValidator } from '../../src/contract/index.js';
import { repositoryPath } from '../support/paths.js';

const catalog = JSON.parse(gunzipSync(readFileSync(repositoryPath('data/cve-records.json.gz'))).toString('utf8')) as CatalogFile;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The value with `change` applied at `path` (a copy; the value itself is left alone). */
function changedAt(value: Json, path: readonly (string | number)[], change: (old: Json) => Json | undefined): Json {
  if (path.length === 0) return change(value) as Json;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === key ? changedAt(item, rest, change) : item));
  const copy = { ...(value as Record<string, Json>) };
  const next = changedAt(copy[key!]!, rest, change);
  if (rest.length === 0 && next === undefined) delete copy[key!];
  else copy[key!] = next;
  return copy;
}

/** Every place of a value: the keys and indexes down to it. */
function* places(value: Json, path: (string | number)[] = []): Generator<(string | number)[]> {
  yield path;
  if (Array.isArray(value)) for (let index = 0; index < value.length; index++) yield* places(value[index]!, [...path, index]);
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) yield* places(value[key]!, [...path, key]);
}

const CHANGES: ((old: Json) => Json | undefined)[] = [
  () => 7,
  () => 'not-a-date http:// x',
  () => null,
  () => [],
  () => undefined,
  (old) => (typeof old === 'object' && old !== null && !Array.isArray(old) ? { ...old, unknownKey: 1 } : old),
  (old) => (typeof old === 'number' ? String(old) : typeof old === 'string' ? `${old}\u00e9`.repeat(300) : old),
];

/** Records of every kind the shipped catalog holds: spread over it, with and without details. */
const sample = catalog.records.filter((_, index) => index % 997 === 0) as unknown as Json[];

describe("the catalog's checks compiled at build time", () => {
  const runtime = createValidator('data');
  const generated = { catalogRecord: catalogRecord as ValidateFunction, catalogTop: catalogTop as ValidateFunction };
  const pairs = Object.entries(CATALOG_CHECKS).map(
    ([name, schema]) => [name, runtime.compile(schema), generated[name as keyof typeof CATALOG_CHECKS]] as const,
  );

  it('accept and reject what the contract compiled at run time does, with the same errors', () => {
    expect(sample.length).toBeGreaterThan(15);
    let accepted = 0;
    let rejected = 0;
    for (const record of sample)
      for (const path of places(record))
        for (const change of CHANGES) {
          const changed = changedAt(record, path, change);
          const top = { lastVerified: '2025-01-24', records: [changed] };
          for (const [name, compiled, built] of pairs) {
            const value = name === 'catalogTop' ? top : changed;
            const verdict = compiled(value);
            expect(built(value), `${name} at /${path.join('/')}`).toBe(verdict);
            expect(built.errors ?? null).toEqual(compiled.errors ?? null);
            if (name === 'catalogRecord') verdict ? accepted++ : rejected++;
          }
        }
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('are what the catalog is checked with', () => {
    expect(findCatalogProblems(catalog)).toEqual([]);
    const problems: Parameters<typeof recordProblems>[2] = [];
    recordProblems({ ...catalog.records[0]!, url: 'ftp://example.com', modified: 'today' }, '/records/0', problems);
    expect(problems.map((problem) => problem.pointer)).toEqual(['/records/0/url', '/records/0/modified']);
    expect(findCatalogProblems({ records: [] })[0]?.problem).toMatch(/lastVerified/);
  });
});
