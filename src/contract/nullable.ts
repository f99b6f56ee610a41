import Type, { type Static, type TSchema } from 'typebox';

/**
 * `T or null` as `{"type": [T, "null"]}` rather than `anyOf`: the same meaning in JSON Schema 2020-12
 * and OpenAPI 3.1, and the serializer writes it directly instead of validating each value to pick a branch.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T, options: { description?: string } = {}) {
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'] });
}
