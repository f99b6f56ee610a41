import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { RecordDetails } from '../../src/contract/index.js';
import { detailsJson } from '../../src/core/details-json.js';
import { repositoryPath } from '../support/paths.js';

const shipped = (
  JSON.parse(gunzipSync(readFileSync(repositoryPath('data/cve-records.json.gz'))).toString('utf8')) as {
    records: { details?: RecordDetails }[];
  }
).records.flatMap((record) => (record.details === undefined ? [] : [record.details]));

/** The same value with every object's keys in reverse order (how PostgreSQL's jsonb may hand them back). */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, field]) => [key, reversedKeys(field)]),
  );
}

describe('detailsJson', () => {
  it('writes every shipped record’s details as the same JSON, whatever order its keys are held in', () => {
    expect(shipped.length).toBeGreaterThan(10_000);
    for (const details of shipped) {
      const text = detailsJson(details);
      expect(JSON.parse(text)).toEqual(details);
      expect(detailsJson(reversedKeys(details) as RecordDetails)).toBe(text);
    }
  });

  it('writes properties in the contract’s order and drops what the contract does not list', () => {
    const details = shipped.find((d) => d.references.length > 1 && d.problemTypes.length > 0)!;
    const text = detailsJson({ unlisted: 1, ...(reversedKeys(details) as RecordDetails) } as RecordDetails);
    expect(text).not.toContain('unlisted');
    expect(text.startsWith('{"title":')).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(JSON.parse(detailsJson(details))));
  });
});
