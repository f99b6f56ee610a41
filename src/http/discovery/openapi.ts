// The OpenAPI 3.1 document, generated from the operations table, the contract schemas and the error
// catalog. Nothing in it is written twice: a schema change shows up here, in validation and in types.
import type { TSchema } from 'typebox';
import type { ServiceConfig } from '../../config.js';
import {
  AffectedProduct,
  API_PREFIX,
  AskBeginMessage,
  AskCompleteMessage,
  AskEndMessage,
  AskErrorMessage,
  AskResultBatchMessage,
  AskResultMessage,
  AskStructuredBody,
  BatchRequest,
  BatchResponse,
  Capabilities,
  CveRecord,
  CveRecordDetails,
  CveRecordPage,
  CvssMetric,
  DetailsBatchResponse,
  type ErrorCode,
  ErrorResponse,
  EVENT_STREAM_MEDIA_TYPE,
  ExportRecord,
  errorCatalog,
  Health,
  MetricSource,
  NDJSON_MEDIA_TYPE,
  NlwebItem,
  NlwebItemsResponse,
  NlwebResponse,
  NlwebResult,
  NlwebSchemaObject,
  NlwebSites,
  type Operation,
  operations,
  Pagination,
  ProblemType,
  ProjectPage,
  ProjectSummary,
  RecordChange,
  RecordChangesPage,
  RecordReference,
  RecordStatus,
  Sandbox,
  VersionCheckQuery,
  VersionCheckRequest,
  VersionCheckResponse,
  VersionCheckResult,
} from '../../contract/index.js';
import { API_VERSION } from '../../version.js';
import { apiDescription } from './openapi-description.js';

type Json = Record<string, unknown>;

const namedSchemas: Record<string, TSchema> = {
  RecordStatus,
  CveRecord,
  Pagination,
  CveRecordPage,
  ExportRecord,
  BatchRequest,
  BatchResponse,
  CveRecordDetails,
  DetailsBatchResponse,
  VersionCheckQuery,
  VersionCheckRequest,
  VersionCheckResult,
  VersionCheckResponse,
  MetricSource,
  CvssMetric,
  ProblemType,
  AffectedProduct,
  RecordReference,
  RecordChange,
  RecordChangesPage,
  ProjectSummary,
  ProjectPage,
  Health,
  Capabilities,
  Sandbox,
  NlwebResult,
  NlwebResponse,
  NlwebSchemaObject,
  NlwebItem,
  NlwebItemsResponse,
  NlwebSites,
  AskStructuredBody,
  AskBeginMessage,
  AskResultMessage,
  AskResultBatchMessage,
  AskErrorMessage,
  AskEndMessage,
  AskCompleteMessage,
  ErrorResponse,
};

const errorResponseNames = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  414: 'UriTooLong',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  500: 'InternalError',
} as const;

/** Statuses any request can meet, whatever its operation. */
const EVERY_OPERATION_ERRORS = [408, 414, 429, 431, 500] as const;

const rateLimitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];
const lifecycleHeaderNames = ['Link', 'Deprecation', 'Sunset'];

/**
 * `required` marks the headers every answer of the kind carries. The RateLimit headers are on every
 * answer that reached the limiter: not on those node:http gives before any route (a malformed request,
 * 408, 431), and on none when an operator turns the limiter off behind a gateway that enforces it.
 */
const headers: Record<string, Json> = {
  'X-Request-Id': {
    description: 'Identifier of this request; the same value as `requestId` of an error. Quote it when reporting a problem.',
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for the calling address (decimal integer).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window for the calling address (decimal integer).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the full capacity returns (decimal integer).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description:
      'The policy, as a structured field of draft-ietf-httpapi-ratelimit-headers-10: `"default";q=<limit>;w=<window seconds>`, e.g. `"default";q=120;w=60`. Clients of the older drafts, which sent `120;w=60`, find the limit in `RateLimit-Limit` and the window in the same `w` parameter.',
    schema: { type: 'string', examples: ['"default";q=120;w=60'] },
  },
  RateLimit: {
    description:
      'The service limit, as a structured field of draft-ietf-httpapi-ratelimit-headers-10: `"default";r=<remaining>;t=<seconds until more requests are allowed>`. `r` is `RateLimit-Remaining`; `t` is not `RateLimit-Reset` (when the full capacity is back) but when one more request is allowed again, as the draft defines it, so on a 429 it equals `Retry-After`.',
    schema: { type: 'string', examples: ['"default";r=119;t=1'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (decimal integer).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  ETag: {
    description:
      'Strong validator of this representation: `"<first 8 characters of the dataset version>-<hash of the bytes>"`, or for the export and the feeds `"<dataset version>-<service version>"`; `-gzip` or `-br` is appended for a compressed answer. Send it back as `If-None-Match` to get 304 when nothing changed.',
    required: true,
    schema: { type: 'string', examples: ['"4f1c2a9b-Vq3pXo8d1bN6sJkR0aLmTw"', '"Xq0dV2kFh7Lm1NcA-1.0.0-gzip"'] },
  },
  'Last-Modified': {
    description: 'When the service loaded the dataset version served (an HTTP date). Send it back as `If-Modified-Since`.',
    required: true,
    schema: { type: 'string', examples: ['Fri, 24 Jan 2025 06:00:00 GMT'] },
  },
  'Cache-Control': {
    description: '`public, max-age=<seconds>` on cacheable answers (records and documents); `no-store` on everything else.',
    required: true,
    schema: { type: 'string', examples: ['public, max-age=300', 'no-store'] },
  },
  Allow: { description: 'The methods this path supports.', required: true, schema: { type: 'string', examples: ['GET, HEAD, OPTIONS'] } },
  Link: {
    description: 'Only when v1 is deprecated: the lifecycle policy (`rel="deprecation"`, `rel="sunset"`) and the successor version.',
    schema: { type: 'string' },
  },
  Deprecation: {
    description: 'Only when v1 is deprecated: the deprecation date as an RFC 9745 structured date, `@<epoch seconds>`.',
    schema: { type: 'string', pattern: '^@[0-9]+$' },
  },
  Sunset: {
    description: 'Only when a deprecated v1 has a scheduled shutdown: the shutdown time as an RFC 8594 HTTP-date.',
    schema: { type: 'string' },
  },
};

/** The document of the service's operations (or of a test's variation of them). */
export function buildOpenApiDocument(config: ServiceConfig, ops: readonly Operation[] = operations): Json {
  const toRef = refResolver();
  const schemas = Object.fromEntries(Object.entries(namedSchemas).map(([name, schema]) => [name, toRef(schema, name)]));
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op, toRef) };
    if (op.post) {
      paths[op.path]!.post = {
        ...operationObject({ ...op, query: undefined, body: op.post.body }, toRef),
        operationId: op.post.operationId,
        summary: `${op.summary} (POST)`,
        description:
          `The POST form of \`${op.operationId}\`: the same parameters as a JSON object or a form, or the NLWeb ` +
          'structured body; the same answers.',
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Public CVE Records API',
      version: API_VERSION,
      summary: 'Read-only public service for cleared CVE records.',
      description: apiDescription(config),
      license: { name: 'CC0-1.0 (record data)', identifier: 'CC0-1.0' },
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'Service', description: 'Health, capabilities and the contract sandbox.' },
      { name: 'Records', description: 'Cleared CVE records: list, get one, batch get, export, and an Atom feed of new ones.' },
      { name: 'Search', description: 'Natural-language search (NLWeb).' },
    ],
    paths,
    components: {
      schemas,
      headers,
      responses: Object.fromEntries(Object.entries(errorResponseNames).map(([status, name]) => [name, errorResponse(Number(status))])),
    },
  };
}

function operationObject(op: Operation, toRef: (schema: TSchema) => Json): Json {
  const versioned = op.path.startsWith(`${API_PREFIX}/`);
  const cacheable = op.caching !== 'no-store';
  const datasetTagged = op.caching === 'dataset';
  const successHeaders = [
    'X-Request-Id',
    ...rateLimitHeaders,
    'Cache-Control',
    ...(cacheable ? ['ETag'] : []),
    ...(datasetTagged ? ['Last-Modified'] : []),
    ...(versioned ? lifecycleHeaderNames : []),
  ];
  const responses: Json = {
    200: {
      description: op.eventStream ? `${op.success.description} ${op.eventStream.description}` : op.success.description,
      headers: headerRefs(successHeaders),
      content: {
        ...successContent(op, toRef),
        ...(op.eventStream
          ? {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  description:
                    'Server-Sent Events, all unnamed; the `data` of each is one of the messages of `x-messages`, ' +
                    'by its `message_type`.',
                },
                'x-messages': Object.fromEntries(Object.entries(op.eventStream.messages).map(([type, schema]) => [type, toRef(schema)])),
              },
            }
          : {}),
      },
    },
  };
  if (cacheable) {
    responses[304] = {
      description: `Not Modified: the representation named by \`If-None-Match\`${datasetTagged ? ' (or, without it, `If-Modified-Since`)' : ''} is still current. No body.`,
      headers: headerRefs(successHeaders),
    };
  }
  for (const status of [...op.errors, ...EVERY_OPERATION_ERRORS]) {
    responses[status] = { $ref: `#/components/responses/${errorResponseNames[status]}` };
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    parameters: [
      ...parametersOf(op.params, 'path', toRef),
      ...parametersOf(op.query, 'query', toRef),
      ...parametersOf(op.headers, 'header', toRef),
      ...(cacheable ? [ifNoneMatch] : []),
      ...(datasetTagged ? [ifModifiedSince] : []),
    ],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: toRef(op.body) } } } } : {}),
    responses,
    'x-lifecycle': { status: 'active', minimumSunsetNoticeDays: 90 },
  };
}

/**
 * JSON by default. NDJSON is a string whose every line `x-itemSchema` describes (the `itemSchema` of
 * OpenAPI 3.2, which 3.1 lacks), and so is an event stream, whose every unnamed event's `data` it
 * describes; another media type is the schema as given.
 */
function successContent(op: Operation, toRef: (schema: TSchema) => Json): Json {
  const { mediaType = 'application/json', schema } = op.success;
  const itemsDescription = STREAMED_ITEMS[mediaType];
  if (itemsDescription === undefined) return { [mediaType]: { schema: toRef(schema) } };
  return { [mediaType]: { schema: { type: 'string', description: itemsDescription }, 'x-itemSchema': toRef(schema) } };
}

const STREAMED_ITEMS: Record<string, string> = {
  [NDJSON_MEDIA_TYPE]: 'One JSON object per line, each ending with a line feed.',
  [EVENT_STREAM_MEDIA_TYPE]:
    'Server-Sent Events: the `data` of each unnamed event is one JSON object; named events and comment lines are described by the operation.',
};

const ifModifiedSince: Json = {
  name: 'If-Modified-Since',
  in: 'header',
  required: false,
  description: 'The `Last-Modified` of the copy the client holds; ignored when `If-None-Match` is sent. Unchanged since: 304, no body.',
  schema: { type: 'string' },
};

const ifNoneMatch: Json = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags of representations the client holds; a match is answered with 304 and no body.',
  schema: { type: 'string' },
};

function parametersOf(schema: TSchema | undefined, location: 'path' | 'query' | 'header', toRef: (s: TSchema) => Json): Json[] {
  if (!schema) return [];
  const object = schema as unknown as { properties: Record<string, TSchema>; required?: string[] };
  return Object.entries(object.properties).map(([name, property]) => {
    const { description, ...rest } = toRef(property);
    return {
      name: location === 'header' ? canonicalHeaderName(name) : name,
      in: location,
      required: location === 'path' || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function canonicalHeaderName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function headerRefs(names: readonly string[]): Json {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function errorResponse(status: number): Json {
  const codes = (Object.keys(errorCatalog) as ErrorCode[]).filter((code) => errorCatalog[code].status === status);
  const example = codes[0]!;
  return {
    description: `${statusText[status]}. \`error.code\` is one of: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: headerRefs([
      'X-Request-Id',
      // 408 and 431 are answered by the HTTP layer before the request reaches the limiter.
      ...(status === 408 || status === 431 ? [] : rateLimitHeaders),
      'Cache-Control',
      ...(status === 429 ? ['Retry-After'] : []),
      ...(status === 405 ? ['Allow'] : []),
    ]),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        example: {
          error: { code: example, message: errorCatalog[example].message },
          requestId: '0b6f5a8e-3c1d-4d7e-9a51-2f0c6b1e8d42',
        },
      },
    },
  };
}

const statusText: Record<number, string> = {
  400: 'The request is invalid',
  404: 'The endpoint or the public record does not exist',
  405: 'The HTTP method is not supported by this path',
  408: 'The client did not send its request in time; the connection is closed',
  414: 'The request URL is too long',
  429: 'The request limit for the calling address is exhausted; wait `Retry-After` seconds',
  431: 'The request headers are too large',
  500: 'The service could not complete the request',
};

/**
 * Replaces every nested occurrence of a named contract schema by a `$ref` to its component. Schemas
 * are matched by content, so a schema reused by value (not by reference) is still recognised.
 */
function refResolver(): (schema: TSchema, self?: string) => Json {
  const names = new Map(Object.entries(namedSchemas).map(([name, schema]) => [JSON.stringify(schema), name]));
  const walk = (value: unknown, self?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value === null || typeof value !== 'object') return value;
    const name = names.get(JSON.stringify(value));
    if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, walk(child)]));
  };
  return (schema, self) => walk(schema, self) as Json;
}
