// A record's details as text stores keep them (a snapshot file, PostgreSQL's load, an import's temporary
// file) and as the content hash reads them: JSON in the contract's field order, whatever order the object
// holds its keys in. A file of its own: the snapshot uses it, and details.ts uses the snapshot.
import { RecordDetails } from '../contract/index.js';

interface ObjectShape {
  readonly properties?: Readonly<Record<string, ObjectShape>>;
  readonly items?: ObjectShape;
}

/** A property of an object's schema, its key already written as JSON. */
interface Field {
  readonly key: string;
  readonly prefix: string;
  readonly shape: ObjectShape;
}

const fieldsOf = new WeakMap<ObjectShape, readonly Field[]>();

/** The properties of an object's schema in order, laid out once per schema rather than at every object. */
function fields(shape: ObjectShape): readonly Field[] {
  let list = fieldsOf.get(shape);
  if (list === undefined) {
    list = Object.entries(shape.properties!).map(([key, property]) => ({ key, prefix: `${JSON.stringify(key)}:`, shape: property }));
    fieldsOf.set(shape, list);
  }
  return list;
}

/**
 * A value as JSON with its object properties in the order its schema lists them, and only those. Written
 * by concatenation: the arrays and entries made per object cost an import's mapping of a record a tenth of
 * its time (docs/PERFORMANCE.md, "The sync step, stop 37").
 */
function orderedJson(schema: ObjectShape, value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + orderedJson(schema.items!, value[i]);
    return `${text}]`;
  }
  let text = '';
  for (const { key, prefix, shape } of fields(schema)) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) text += (text === '' ? '{' : ',') + prefix + orderedJson(shape, field);
  }
  return text === '' ? '{}' : `${text}}`;
}

/**
 * A record's details as a text store keeps them: JSON in the contract's field order, however the catalog
 * ordered them (PostgreSQL's jsonb reorders keys), so detailsBody can send the stored text as it is.
 */
export function detailsJson(details: RecordDetails): string {
  return orderedJson(RecordDetails as ObjectShape, details);
}
