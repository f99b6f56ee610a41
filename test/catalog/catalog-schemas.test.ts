// The schemas a catalog is checked against are the contract's own: the data validator compiles them
// without checking them against JSON Schema's meta-schema (which cost each sync step, a process of its own,
// a tenth of a second; stop 37), so this test is what checks them.
import { describe, expect, it } from 'vitest';
import { CatalogFile, CatalogRecord, createValidator } from '../../src/contract/index.js';

describe("the catalog's schemas", () => {
  it('are valid JSON Schema 2020-12', () => {
    const ajv = createValidator('request');
    for (const schema of [CatalogRecord, CatalogFile]) expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true);
  });

  it('are compiled by the data validator without a check against the meta-schema', () => {
    expect(() => createValidator('data').compile({ title: 5 })).not.toThrow();
  });
});
