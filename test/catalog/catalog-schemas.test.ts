// The schemas requests and catalogs are checked against are the contract's own: the validators compile
// them without checking them against JSON Schema's meta-schema (which cost each sync step, a process of its
// own, a tenth of a second, and a server's start a quarter of a second; stop 37), so this test is what
// checks them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as contract from '../../src/contract/index.js';

/** The contract's exported schemas: objects with a keyword that makes a schema of them. */
const schemas = Object.entries(contract).filter(
  ([, value]) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ['type', 'anyOf', 'oneOf', 'allOf', 'properties', '$ref'].some((keyword) => keyword in value),
);

describe("the contract's schemas", () => {
  it('are valid JSON Schema 2020-12', () => {
    expect(schemas.length).toBeGreaterThan(50);
    const ajv = new Ajv2020({ strict: false });
    const invalid = schemas.filter(([, schema]) => !ajv.validateSchema(schema as object)).map(([name]) => `${name}: ${ajv.errorsText()}`);
    expect(invalid).toEqual([]);
  });

  it('are compiled by both validators without a check against the meta-schema', () => {
    for (const preset of ['data', 'request'] as const) expect(() => contract.createValidator(preset).compile({ title: 5 })).not.toThrow();
  });
});
