// The one place JSON Schema validators are made. Every check of the service comes from here, so that a
// request refused over REST is refused the same way as an MCP tool argument, and a catalog is checked
// with the same formats the responses promise.
import { Ajv2020, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from 'typebox';
import { ServiceError } from './error-catalog.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * `request`: what a caller sends (query strings, bodies, headers, tool arguments). Query strings arrive
 * as text, so types are coerced (`limit=5`); defaults fill in; unknown properties are errors, never
 * silently dropped; the first problem is enough to answer.
 * `data`: what the service holds (a catalog). Nothing is coerced or filled in; every problem is reported.
 */
export type ValidationPreset = 'request' | 'data';

// The schemas either checks against are the contract's own, checked against JSON Schema's meta-schema by
// the tests (test/catalog/catalog-schemas.test.ts): checking them again at every compile cost each sync step
// (a process of its own) a tenth of a second, and a server's start a quarter of a second of compiling the
// meta-schema (docs/PERFORMANCE.md, "The sync step, stop 37").
const PRESETS = {
  request: { strict: false, allErrors: false, removeAdditional: false, useDefaults: true, coerceTypes: true, validateSchema: false },
  data: { strict: false, allErrors: true, validateSchema: false },
} as const;

/** `code`: ajv's code generation options (scripts/generate-checks.ts asks for the checks' source). */
export function createValidator(preset: ValidationPreset, code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({ ...PRESETS[preset], ...(code ? { code } : {}) });
  addFormats(ajv);
  return ajv;
}

/** Which part of a request a value is: it names the error a failure becomes. */
export type RequestPart = 'querystring' | 'body' | 'headers' | 'params';

export type ValidationIssue = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'>;

/** The catalog's error for the first problems of a request part. */
export function validationFailure(part: string | undefined, issues: readonly ValidationIssue[]): ServiceError {
  const first = issues[0];
  if (part === 'querystring') {
    const unknown = issues.find((i) => i.keyword === 'additionalProperties');
    if (unknown) {
      const parameter = String(unknown.params.additionalProperty);
      return new ServiceError('unknown_parameter', `Unknown query parameter "${parameter}".`, { parameter });
    }
    const parameter = first?.instancePath.replace(/^\//, '') || String(first?.params.missingProperty ?? '');
    return new ServiceError('invalid_parameter', `Query parameter "${parameter}" ${first?.message ?? 'is invalid'}.`, {
      parameter,
      problem: first?.message,
    });
  }
  if (part === 'headers') {
    const header = first?.instancePath.replace(/^\//, '') ?? '';
    return new ServiceError('invalid_header', `Header "${header}" ${first?.message ?? 'is invalid'}.`, { header, problem: first?.message });
  }
  const problems = issues.map((i) => ({ pointer: i.instancePath || '/', problem: describeIssue(i) }));
  return new ServiceError(
    'invalid_body',
    `The request body does not match the schema: ${problems.map((p) => `${p.pointer} ${p.problem}`).join('; ')}.`,
    { problems },
  );
}

function describeIssue(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return `has unknown property "${String(issue.params.additionalProperty)}"`;
  if (issue.keyword === 'uniqueItems') return 'must not repeat an identifier';
  return issue.message ?? issue.keyword;
}

export type RequestCheck<T extends TSchema> = (value: unknown) => Static<T>;

const requests = createValidator('request');

/**
 * A check of one request part outside Fastify's routing (MCP tool arguments): compiled once, it returns
 * the value with its defaults, or throws the ServiceError a REST request would be answered with.
 */
export function requestCheck<T extends TSchema>(schema: T, part: RequestPart): RequestCheck<T> {
  const validate: ValidateFunction = requests.compile(schema);
  return (value) => {
    const copy = structuredClone(value ?? {});
    if (validate(copy)) return copy as Static<T>;
    throw validationFailure(part, validate.errors ?? []);
  };
}
