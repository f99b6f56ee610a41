// Contract schemas in the form the MCP SDK takes them (Standard Schema with a JSON Schema view). The JSON
// Schema that tools/list advertises is the contract schema itself, never a hand copy.
import { fromJsonSchema, type JsonSchemaType, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Static, TSchema } from 'typebox';

/**
 * A tool's input: advertised as is, and let through by the SDK unchecked. The tool checks its arguments
 * itself (tool-arguments.ts) so that a bad one is a tool error carrying the catalog's code, as REST
 * answers it; the SDK's own check would answer with a bare sentence.
 */
export function toolInput<T extends TSchema>(schema: T): StandardSchemaWithJSON<Static<T>> {
  const json = () => schema as unknown as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'public-cve-records',
      validate: (value) => ({ value: value as Static<T> }),
      jsonSchema: { input: json, output: json },
    },
  };
}

/** A tool's output: advertised as is and checked by the SDK before a result leaves. */
export function toolOutput<T extends TSchema>(schema: T): StandardSchemaWithJSON<Static<T>> {
  return fromJsonSchema<Static<T>>(schema as unknown as JsonSchemaType);
}
