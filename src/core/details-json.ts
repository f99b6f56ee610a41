// A record's details as text stores keep them (a snapshot file, PostgreSQL's load, an import's temporary
// file) and as the content hash reads them: JSON in the contract's field order, whatever order the object
// holds its keys in. A file of its own: the snapshot uses it, and details.ts uses the snapshot.
import { RecordDetails } from '../contract/index.js';

interface ObjectShape {
  readonly properties?: Readonly<Record<string, ObjectShape>>;
  readonly items?: ObjectShape;
}

/** A value as JSON with its object properties in the order its schema lists them, and only those. */
function orderedJson(schema: ObjectShape, value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => orderedJson(schema.items!, item)).join(',')}]`;
  const fields: string[] = [];
  for (const [key, property] of Object.entries(schema.properties!)) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) fields.push(`${JSON.stringify(key)}:${orderedJson(property, field)}`);
  }
  return `{${fields.join(',')}}`;
}

/**
 * A record's details as a text store keeps them: JSON in the contract's field order, however the catalog
 * ordered them (PostgreSQL's jsonb reorders keys), so detailsBody can send the stored text as it is.
 */
export function detailsJson(details: RecordDetails): string {
  return orderedJson(RecordDetails as ObjectShape, details);
}
