// The change feed: which records changed, and which left the catalog, since a point a client keeps
// between polls. A compatible addition within v1: a new operation with objects of its own, so the spec's
// closed CveRecord travels unchanged inside a change.
import Type, { type Static } from 'typebox';
import { type FilterProperties, filterProperties, LIST_FILTERS } from './list-filters.js';
import { MAX_CURSOR_LENGTH } from './parameters.js';
import { CveId, CveRecord, Nullable } from './records.js';

export const CHANGES_LIMIT = { min: 1, max: 1000, default: 100 } as const;
/** Bytes a change stream may hold for a client that does not read before it is disconnected (it resumes with Last-Event-ID). */
export const CHANGE_STREAM_BUFFER_BYTES = 256 * 1024;

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CURSOR_LENGTH,
        description:
          'Where to start: the `pagination.next` token of an earlier answer (changes after it), or an RFC 3339 ' +
          'date-time (changes at or after it, e.g. `2025-01-20T00:00:00Z`). Absent: from the oldest change.',
        examples: ['2025-01-20T00:00:00Z'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: CHANGES_LIMIT.min,
        maximum: CHANGES_LIMIT.max,
        default: CHANGES_LIMIT.default,
        description: `Maximum number of changes to return, ${CHANGES_LIMIT.min} to ${CHANGES_LIMIT.max}.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;

export const RecordChange = Type.Object(
  {
    id: CveId,
    change: Type.Enum(['updated', 'removed'], {
      description:
        '`updated`: the record was added or changed; `record` is its current state. `removed`: the record left the ' +
        'catalog (its CVE was rejected upstream); there is no `record`.',
    }),
    modified: Nullable(Type.String({ format: 'date-time' }), {
      description:
        "When the change happened upstream (the CVE record's `dateUpdated`, UTC); null for records whose time is unknown, which come first.",
    }),
    record: Type.Optional(CveRecord),
  },
  { additionalProperties: false, description: 'One change of the catalog.' },
);
export type RecordChange = Static<typeof RecordChange>;

export const ChangesPagination = Type.Object(
  {
    limit: Type.Integer({ minimum: CHANGES_LIMIT.min, maximum: CHANGES_LIMIT.max, description: 'Page size used.' }),
    returned: Type.Integer({ minimum: 0, description: 'Number of changes in this page.' }),
    hasMore: Type.Boolean({ description: 'Whether more changes follow now; if so, ask again at once with `next`.' }),
    next: Type.String({
      description: 'Pass as `since` to continue after this page. Keep it when `hasMore` is false: it is where your next poll starts.',
    }),
  },
  { additionalProperties: false },
);

export const RecordChangesPage = Type.Object(
  {
    schemaVersion: Type.String({ description: 'Version of this page schema.', examples: ['1.0'] }),
    lastVerified: Type.String({ format: 'date', description: 'Date the record list was last verified.' }),
    changes: Type.Array(RecordChange, { description: 'Changes, oldest first: by `modified`, then in listing order.' }),
    pagination: ChangesPagination,
  },
  { additionalProperties: false },
);
export type RecordChangesPage = Static<typeof RecordChangesPage>;

/**
 * The change stream's filters: the list's that the table says a stream takes, so a stream follows exactly
 * the records a list with them shows. (Typed as all of them: each is optional either way.)
 */
const streamFilters = filterProperties(
  Object.fromEntries(Object.entries(LIST_FILTERS).filter(([, filter]) => filter.stream)),
) as FilterProperties<typeof LIST_FILTERS>;

const streamPoint = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: MAX_CURSOR_LENGTH, description }));

export const ChangeStreamQuery = Type.Object(
  {
    since: streamPoint(
      'Where to start: the `id` of an earlier event or the `pagination.next` token of the change feed (changes after ' +
        'it), or an RFC 3339 date-time (changes at or after it). The changes since then come first, then live ones. ' +
        'Absent: from now on. `Last-Event-ID` (header, or `lastEventId`) wins over it.',
    ),
    lastEventId: streamPoint(
      'The `Last-Event-ID` for clients that cannot send headers (EventSource polyfills send it so): the `id` of the last ' +
        'event received. The header wins when both are sent.',
    ),
    ...streamFilters,
  },
  { additionalProperties: false },
);
export type ChangeStreamQuery = Static<typeof ChangeStreamQuery>;

export const LAST_EVENT_ID_HEADER = 'last-event-id';
export const ChangeStreamHeaders = Type.Object({
  [LAST_EVENT_ID_HEADER]: streamPoint(
    'Sent by EventSource when it reconnects: the `id` of the last event received. The stream resumes right after it.',
  ),
});

/** The data of the `ready` event, sent once the changes since the start point have all been sent. */
export const ChangeStreamReady = Type.Object(
  {
    next: Type.String({ description: 'Where the stream stands, also its `id`: resume from here to miss nothing.' }),
  },
  { additionalProperties: false },
);
export type ChangeStreamReady = Static<typeof ChangeStreamReady>;
