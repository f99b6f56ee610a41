// Validates responses against the served OpenAPI document with a JSON Schema 2020-12 validator.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, any>;

export interface ResponseLike {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

export class OpenApiValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(readonly doc: Json) {
    addFormats(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: 'openapi' });
  }

  /** The operation object for a path template and method, or undefined. */
  operation(path: string, method: string): Json | undefined {
    return this.doc.paths[path]?.[method.toLowerCase()];
  }

  documentedStatuses(path: string, method: string): number[] {
    return Object.keys(this.operation(path, method)?.responses ?? {}).map(Number);
  }

  /** Validation errors of a value against a named component schema, or null when it is valid. */
  componentErrors(name: string, value: unknown): string | null {
    const validate = this.#ajv.getSchema(`openapi#/components/schemas/${name}`);
    if (!validate) return `no component schema ${name}`;
    return validate(value) ? null : JSON.stringify(validate.errors);
  }

  /** Asserts the status is documented for the operation and the body matches its schema. */
  check(path: string, method: string, response: ResponseLike, contentType = 'application/json'): void {
    const op = this.operation(path, method);
    expect(op, `${method} ${path} is in the document`).toBeDefined();
    let pointer = `#/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${response.statusCode}`;
    let entry = op!.responses[response.statusCode];
    expect(entry, `${method} ${path}: status ${response.statusCode} is documented`).toBeDefined();
    if (entry.$ref) {
      pointer = entry.$ref;
      entry = this.doc.components.responses[entry.$ref.split('/').pop()];
    }
    if (!entry.content) {
      // A response documented without content (304 Not Modified) must come without a body.
      expect(response.body, `${method} ${path} ${response.statusCode} has no body`).toBe('');
      return;
    }
    expect(String(response.headers['content-type'])).toContain(contentType);
    expect(entry.content?.[contentType], `${contentType} is documented`).toBeDefined();
    const validate = this.#ajv.getSchema(`openapi${pointer}/content/${pointerSegment(contentType)}/schema`)!;
    const body = JSON.parse(response.body);
    const ok = validate(body);
    expect(ok, `${method} ${path} ${response.statusCode}: ${JSON.stringify(validate.errors)}\n${response.body.slice(0, 500)}`).toBe(true);
    for (const [name, ref] of Object.entries<Json>(entry.headers ?? {})) {
      const header = ref.$ref ? this.doc.components.headers[ref.$ref.split('/').pop()] : ref;
      if (!header.required) continue;
      expect(response.headers[name.toLowerCase()], `header ${name} of ${method} ${path} ${response.statusCode}`).toBeDefined();
    }
  }
}

function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
