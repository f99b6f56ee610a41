// Tool arguments are checked against the contract schema with the options the REST routes validate
// with, and a bad one is translated by the same code that translates a REST validation failure, so
// `list_cve_records {limit: 500}` and `GET /api/v1/cve-records?limit=500` fail alike.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyError } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { ServiceError } from '../../contract/index.js';
import { toServiceError } from '../edge/error-handler.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: false, removeAdditional: false, useDefaults: true });
addFormats(ajv);

/** Which part of a REST request the arguments stand for: its query parameters or its JSON body. */
export type ArgumentsKind = 'querystring' | 'body';

export type ArgumentsCheck<T extends TSchema> = (args: unknown) => Static<T>;

/** Compiles once; the returned check throws the ServiceError REST would answer with. */
export function argumentsCheck<T extends TSchema>(schema: T, kind: ArgumentsKind): ArgumentsCheck<T> {
  const validate: ValidateFunction = ajv.compile(schema);
  return (args) => {
    const value = structuredClone(args ?? {});
    if (validate(value)) return value as Static<T>;
    const failure = Object.assign(new Error('invalid tool arguments'), { validation: validate.errors ?? [], validationContext: kind });
    throw toServiceError(failure as unknown as FastifyError) ?? new ServiceError('bad_request');
  };
}
