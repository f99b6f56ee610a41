// The record resources of the spec. Every other shape of a record (catalog file, OpenAPI, MCP tools,
// SDK types) is derived from these.
import Type, { type Static } from 'typebox';
import { RecordDetails, recordDetailFields, SEVERITIES, type Severity } from './details.js';
import { Nullable } from './nullable.js';

export { Nullable } from './nullable.js';

export const CVE_ID_PATTERN = '^CVE-[0-9]{4}-[0-9]+$';
export const CVE_ID_REGEX = new RegExp(CVE_ID_PATTERN);

export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
export const BATCH_MAX_IDS = 50;
/** Real product names run to 474 characters; the importer cuts longer ones, the catalog refuses them. */
export const MAX_PROJECT_LENGTH = 1000;

export const CveId = Type.String({
  pattern: CVE_ID_PATTERN,
  description: 'CVE identifier, e.g. `CVE-2025-24530`.',
  examples: ['CVE-2025-24530'],
});

export const RecordStatus = Type.Enum(['public', 'assigned-no-public-record'], {
  description:
    '`public`: the CVE record is published and `url` points at it. ' +
    '`assigned-no-public-record`: the identifier is assigned and cleared, but no public record exists yet (`url` is null).',
});
export type RecordStatus = Static<typeof RecordStatus>;
export const RECORD_STATUSES: readonly RecordStatus[] = ['public', 'assigned-no-public-record'];

const PROJECT_DESCRIPTION = 'Open-source project name.';
const URL_DESCRIPTION = 'Public record URL; null when there is no public record.';

const cveRecordFields = {
  id: CveId,
  project: Type.String({ description: PROJECT_DESCRIPTION, examples: ['phpMyAdmin'] }),
  status: RecordStatus,
  url: Nullable(Type.String({ format: 'uri' }), { description: URL_DESCRIPTION }),
};

export const CveRecord = Type.Object(cveRecordFields, {
  additionalProperties: false,
  description: 'A cleared CVE record.',
});
export type CveRecord = Static<typeof CveRecord>;

export const Pagination = Type.Object(
  {
    limit: Type.Integer({ minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, description: 'Page size used.' }),
    returned: Type.Integer({ minimum: 0, description: 'Number of records in this page.' }),
    total: Type.Integer({ minimum: 0, description: 'Number of records matching the filters, over all pages.' }),
    nextCursor: Nullable(Type.String(), {
      description: 'Opaque cursor of the next page; pass it as `cursor`. Null on the last page.',
    }),
  },
  { additionalProperties: false },
);
export type Pagination = Static<typeof Pagination>;

export const CveRecordPage = Type.Object(
  {
    schemaVersion: Type.String({ description: 'Version of this page schema.', examples: ['1.0'] }),
    lastVerified: Type.String({ format: 'date', description: 'Date the record list was last verified.' }),
    records: Type.Array(CveRecord),
    pagination: Pagination,
  },
  { additionalProperties: false },
);
export type CveRecordPage = Static<typeof CveRecordPage>;

export const BatchRequest = Type.Object(
  {
    recordIds: Type.Array(CveId, {
      minItems: 1,
      maxItems: BATCH_MAX_IDS,
      uniqueItems: true,
      description: `1 to ${BATCH_MAX_IDS} unique CVE identifiers.`,
    }),
  },
  { additionalProperties: false },
);
export type BatchRequest = Static<typeof BatchRequest>;

export const BatchResponse = Type.Object(
  {
    records: Type.Array(CveRecord, { description: 'Records found, in request order.' }),
    missing: Type.Array(Type.String(), {
      description: 'Requested identifiers that have no public record, in request order.',
    }),
  },
  { additionalProperties: false },
);
export type BatchResponse = Static<typeof BatchResponse>;

/**
 * One line of the bulk export: a record as the API serves it, with the dates a client keeping a full copy
 * needs (what changed since its last export, what is new). A schema of its own: CveRecord stays closed.
 */
export const ExportRecord = Type.Object(
  {
    ...cveRecordFields,
    published: Type.Optional(Type.String({ format: 'date', description: 'Publication date; absent when the service has none.' })),
    modified: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the record last changed upstream (UTC); absent when the service does not know.',
      }),
    ),
  },
  { additionalProperties: false, description: 'A record of the bulk export (one line of NDJSON).' },
);
export type ExportRecord = Static<typeof ExportRecord>;

/**
 * A record with what its CVE JSON 5 record says (issue 15). A schema of its own: CveRecord stays closed. A
 * record with no public CVE record has null and empty detail fields.
 */
export const CveRecordDetails = Type.Object(
  {
    ...cveRecordFields,
    modified: Nullable(Type.String({ format: 'date-time' }), {
      description: 'When the record last changed as the service knows it (UTC): upstream `dateUpdated`, or when a sync took it.',
    }),
    severity: Type.Unsafe<Severity | null>({
      type: ['string', 'null'],
      enum: [...SEVERITIES, null],
      description: 'The highest severity of `metrics`, in lower case; null when the record has no CVSS score.',
    }),
    ...recordDetailFields,
  },
  {
    additionalProperties: false,
    description: 'A CVE record with its description, scores, weaknesses, exploitation and affected products.',
  },
);
export type CveRecordDetails = Static<typeof CveRecordDetails>;

export const DetailsBatchResponse = Type.Object(
  {
    records: Type.Array(CveRecordDetails, { description: 'Records found, in request order.' }),
    missing: Type.Array(Type.String(), { description: 'Requested identifiers that have no record, in request order.' }),
  },
  { additionalProperties: false },
);
export type DetailsBatchResponse = Static<typeof DetailsBatchResponse>;

// The operator's catalog file: the CveRecord fields plus optional fields that feed search and never
// appear in a CveRecord.
export const CatalogRecord = Type.Object(
  {
    ...cveRecordFields,
    project: Type.String({ minLength: 1, maxLength: MAX_PROJECT_LENGTH, description: PROJECT_DESCRIPTION }),
    // Records link out to their public page: only web links, so no catalog can make a page link run script.
    url: Nullable(Type.String({ format: 'uri', pattern: '^https?://' }), { description: URL_DESCRIPTION }),
    summary: Type.Optional(Type.String({ description: 'English summary, used by search.' })),
    published: Type.Optional(Type.String({ format: 'date', description: 'Publication date.' })),
    modified: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the record last changed upstream (cveMetadata.dateUpdated, in UTC), for change feeds.',
      }),
    ),
    details: Type.Optional(RecordDetails),
    changed: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When a sync took this version of the record, when upstream published it late (after later changes were ' +
          'already applied: a delta missed it and a baseline brought it). The change feed orders by it, so a client ' +
          'polling with a token never skips the change.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CatalogRecord = Static<typeof CatalogRecord>;

/** A project of a catalog and the other spellings its records were published under, for search. */
export const CatalogProject = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_PROJECT_LENGTH }),
    aliases: Type.Array(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type CatalogProject = Static<typeof CatalogProject>;

/** A record that left the catalog (its CVE was rejected upstream), kept so change feeds can say so. */
export const CatalogRemoval = Type.Object(
  {
    id: CveId,
    modified: Type.String({ format: 'date-time', description: "When it left: the rejection's dateUpdated, in UTC." }),
  },
  { additionalProperties: false },
);
export type CatalogRemoval = Static<typeof CatalogRemoval>;

/**
 * Where `cve-records sync` stands in its upstream, kept inside the catalog it wrote, so the catalog and its
 * cursor are replaced by one rename: a sync killed at any point leaves both as they were, or both new.
 */
export const SyncCursor = Type.Object(
  {
    source: Type.String({ description: 'The upstream last synced from, as given to the command.' }),
    baseline: Type.Optional(Type.String({ format: 'date', description: 'Day of the last midnight baseline applied.' })),
    delta: Type.Optional(Type.String({ description: 'Last delta applied, as `YYYY-MM-DDTHH:00Z` (`T24:00Z` for the end of the day).' })),
    commit: Type.Optional(Type.String({ description: 'Last cvelistV5 commit applied, from a checkout.' })),
    dateUpdated: Type.Optional(Type.String({ format: 'date-time', description: 'Newest upstream dateUpdated applied.' })),
    syncedAt: Type.String({ format: 'date-time', description: 'When the last sync finished.' }),
  },
  { additionalProperties: false },
);
export type SyncCursor = Static<typeof SyncCursor>;

export const CatalogFile = Type.Object(
  {
    lastVerified: Type.String({ format: 'date' }),
    projects: Type.Optional(Type.Array(CatalogProject)),
    records: Type.Array(CatalogRecord),
    removed: Type.Optional(Type.Array(CatalogRemoval)),
    sync: Type.Optional(SyncCursor),
  },
  { additionalProperties: false },
);
export type CatalogFile = Static<typeof CatalogFile>;

/**
 * What a catalog is checked against (catalog/catalog-validation.ts): its top level, its records only an
 * array there, and each record on its own, so that every problem is located under its record. Compiled
 * ahead of time into src/contract/catalog-checks.generated.ts by `npm run build` (scripts/generate-checks.ts),
 * so that no process compiles them when it starts: tens of milliseconds of a sync step (docs/PERFORMANCE.md,
 * "The sync step and the start, stop 38").
 */
export const CATALOG_CHECKS = {
  catalogTop: { ...CatalogFile, properties: { ...CatalogFile.properties, records: { type: 'array' } } },
  catalogRecord: CatalogRecord,
} as const;
