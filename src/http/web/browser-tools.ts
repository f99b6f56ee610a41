// The browser tools script (PATHS.browserTools): the WebMCP tools of this service, one per public operation of the contract. The
// definitions are generated here from the operations table, input schemas included, and written into
// the script, whose code (assets/browser-tools.js) only registers them and turns a call into a request.
import type { TSchema } from 'typebox';
import { NLWEB_IGNORED_PARAMETERS, type Operation, operations } from '../../contract/index.js';
import { PATHS } from '../shared/paths.js';
import { type Asset, asset, JAVASCRIPT, ownAsset } from './static-assets.js';

type ArgumentPlace = 'path' | 'query' | 'body';

export interface BrowserTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly method: Operation['method'];
  readonly path: string;
  /** Where the request carries each argument. */
  readonly places: Readonly<Record<string, ArgumentPlace>>;
}

/**
 * A tool answers JSON, so the parameters that turn an answer into an event stream are left out; so are
 * the NLWeb parameters the service ignores, which would only be noise to a model.
 */
const LEFT_OUT = new Set<string>(['stream', 'streaming', ...NLWEB_IGNORED_PARAMETERS]);

export function browserTools(): BrowserTool[] {
  return operations.map((op) => {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const places: Record<string, ArgumentPlace> = {};
    const parts: Array<[TSchema | undefined, ArgumentPlace]> = [
      [op.params, 'path'],
      [op.query, 'query'],
      [op.body, 'body'],
    ];
    for (const [schema, place] of parts) {
      const object = schema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
      for (const [name, property] of Object.entries(object?.properties ?? {})) {
        if (LEFT_OUT.has(name)) continue;
        properties[name] = property;
        places[name] = place;
        if (object?.required?.includes(name)) required.push(name);
      }
    }
    return {
      name: op.operationId,
      description: `${op.summary}. ${op.description}`,
      inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
      method: op.method,
      path: op.path,
      places,
    };
  });
}

const PLACEHOLDER = 'TOOL_DEFINITIONS';

export function browserToolsAsset(): Asset {
  const code = ownAsset('browser-tools.js').toString('utf8');
  if (code.split(PLACEHOLDER).length !== 2) throw new Error(`assets/browser-tools.js must name ${PLACEHOLDER} exactly once`);
  // JSON is JavaScript: the definitions become the literal the script's code is called with.
  return asset(PATHS.browserTools, JAVASCRIPT, Buffer.from(code.replace(PLACEHOLDER, JSON.stringify(browserTools()))));
}
