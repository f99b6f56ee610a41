// A record's details as text stores keep them (a snapshot file, PostgreSQL's load, an import's temporary
// file) and as the content hash reads them: JSON in the contract's field order, whatever order the object
// holds its keys in. A file of its own: the snapshot uses it, and details.ts uses the snapshot.
import { RecordDetails } from '../contract/index.js';

interface ObjectShape {
  readonly properties?: Readonly<Record<string, ObjectShape>>;
  readonly items?: ObjectShape;
}

type Json = (value: unknown) => string;

/**
 * What writes a value as JSON with its object properties in the order its schema lists them, and only those.
 * Made once per schema: each object's fields, their quoted names and writers are worked out here rather than
 * at every value (listing the schema's properties per object was a fifth of an import's mapping time).
 */
function orderedJson(schema: ObjectShape): Json {
  const item = schema.items === undefined ? undefined : orderedJson(schema.items);
  const fields =
    schema.properties &&
    Object.entries(schema.properties).map(([key, property]) => ({ key, name: `${JSON.stringify(key)}:`, json: orderedJson(property) }));
  return (value) => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) {
      let out = '[';
      for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + item!(value[i]);
      return `${out}]`;
    }
    let out = '';
    for (const { key, name, json } of fields!) {
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) out += (out === '' ? '' : ',') + name + json(field);
    }
    return `{${out}}`;
  };
}

const recordDetailsJson = orderedJson(RecordDetails as ObjectShape);

/**
 * A record's details as a text store keeps them: JSON in the contract's field order, however the catalog
 * ordered them (PostgreSQL's jsonb reorders keys), so detailsBody can send the stored text as it is.
 */
export function detailsJson(details: RecordDetails): string {
  return recordDetailsJson(details);
}
