// What a CVE record says besides its CveRecord fields, as the importer maps it from the CVE JSON 5
// record (docs/API.md names each field's source). A catalog keeps these fields per record (`details`);
// the API serves them with the record's own fields as CveRecordDetails (records.ts). Every object is
// closed, like CveRecord.
import Type, { type Static } from 'typebox';
import { Nullable } from './nullable.js';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'none'] as const;
export const Severity = Type.Enum([...SEVERITIES], { description: 'A CVSS qualitative severity rating, in lower case.' });
export type Severity = Static<typeof Severity>;

export const CVSS_VERSIONS = ['4.0', '3.1', '3.0', '2.0'] as const;

export const MetricSource = Type.Object(
  {
    container: Type.Enum(['cna', 'adp'], { description: 'Which container of the CVE record said it: the CNA, or an ADP.' }),
    shortName: Nullable(Type.String(), {
      description: "The container provider's short name (`providerMetadata.shortName`), e.g. `CISA-ADP`.",
    }),
  },
  { additionalProperties: false, description: 'Where in the CVE record a statement comes from.' },
);
export type MetricSource = Static<typeof MetricSource>;

export const CvssMetric = Type.Object(
  {
    version: Type.Enum([...CVSS_VERSIONS], { description: 'CVSS version.' }),
    vector: Type.String({ description: 'The CVSS vector string.', examples: ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'] }),
    baseScore: Type.Number({ minimum: 0, maximum: 10 }),
    severity: Severity,
    source: MetricSource,
  },
  { additionalProperties: false, description: 'One CVSS score of the record.' },
);
export type CvssMetric = Static<typeof CvssMetric>;

export const ProblemType = Type.Object(
  {
    cweId: Nullable(Type.String(), { description: 'CWE identifier, e.g. `CWE-79`; null for a problem type given only as text.' }),
    description: Type.String({ description: 'The problem type as its provider wrote it, e.g. `CWE-79 Cross-site Scripting`.' }),
    source: MetricSource,
  },
  { additionalProperties: false },
);
export type ProblemType = Static<typeof ProblemType>;

export const KnownExploited = Type.Object(
  {
    dateAdded: Type.String({ format: 'date', description: 'When CISA added the CVE to its Known Exploited Vulnerabilities catalog.' }),
    reference: Nullable(Type.String(), { description: 'Where the catalog lists it (a URL).' }),
  },
  { additionalProperties: false, description: "The record's entry in CISA's Known Exploited Vulnerabilities (KEV) catalog." },
);
export type KnownExploited = Static<typeof KnownExploited>;

export const SsvcDecisionPoints = Type.Object(
  {
    exploitation: Nullable(Type.String(), {
      description: "`none`, `poc` or `active` (CISA-ADP's words; other providers may say `public poc`).",
    }),
    automatable: Nullable(Type.String(), { description: '`yes` or `no`.' }),
    technicalImpact: Nullable(Type.String(), { description: '`partial` or `total`.' }),
    timestamp: Nullable(Type.String({ format: 'date-time' }), { description: 'When the decision points were assessed (UTC).' }),
    source: MetricSource,
  },
  { additionalProperties: false, description: 'SSVC decision points (Stakeholder-Specific Vulnerability Categorization).' },
);
export type SsvcDecisionPoints = Static<typeof SsvcDecisionPoints>;

export const VERSION_STATUSES = ['affected', 'unaffected', 'unknown'] as const;
export const VersionStatus = Type.Enum([...VERSION_STATUSES], {
  description: 'Whether a version is affected, as CVE JSON 5 says it: `affected`, `unaffected` or `unknown`.',
});
export type VersionStatus = Static<typeof VersionStatus>;

/** The CVE JSON 5 schema's limit on a version string; the importer leaves longer ones out. */
export const MAX_VERSION_LENGTH = 1024;

export const VersionChange = Type.Object(
  {
    at: Type.String({ maxLength: MAX_VERSION_LENGTH, description: 'The version at which the status changes.' }),
    status: VersionStatus,
  },
  { additionalProperties: false, description: 'A status change inside a range (CVE JSON 5 `changes[]`).' },
);
export type VersionChange = Static<typeof VersionChange>;

export const AffectedVersion = Type.Object(
  {
    version: Type.String({
      maxLength: MAX_VERSION_LENGTH,
      description: 'A single version, or where a range starts (`0`: no lower bound).',
    }),
    status: VersionStatus,
    versionType: Nullable(Type.String(), { description: 'How versions compare: `semver`, `custom`, `rpm`, `maven`, `python`, `git`, …' }),
    lessThan: Nullable(Type.String({ maxLength: MAX_VERSION_LENGTH }), {
      description: 'The least version after the range; `*` in it means no limit (`2.*`: the whole 2 series).',
    }),
    lessThanOrEqual: Nullable(Type.String({ maxLength: MAX_VERSION_LENGTH }), { description: 'The greatest version in the range.' }),
    changes: Type.Array(VersionChange),
  },
  { additionalProperties: false, description: 'One entry of a CVE JSON 5 `versions` list, as the record states it.' },
);
export type AffectedVersion = Static<typeof AffectedVersion>;

export const AffectedProduct = Type.Object(
  {
    vendor: Nullable(Type.String()),
    product: Nullable(Type.String()),
    packageName: Nullable(Type.String()),
    packageURL: Nullable(Type.String(), { description: 'Package URL (purl), from CVE records of format 5.2 on.' }),
    versions: Type.String({
      description:
        'The versions and their statuses in words, e.g. `affected from 1.0 before 1.4.2; unaffected 1.4.2; otherwise unaffected`; ' +
        'empty when the record lists none.',
    }),
    collectionURL: Type.Optional(
      Nullable(Type.String(), { description: 'The package collection `packageName` is in, e.g. `https://registry.npmjs.org`.' }),
    ),
    cpes: Type.Optional(Type.Array(Type.String(), { description: 'CPE 2.2 or 2.3 names of the product.' })),
    defaultStatus: Type.Optional(
      Type.Unsafe<VersionStatus | null>({
        type: ['string', 'null'],
        enum: [...VERSION_STATUSES, null],
        description: 'The status of every version `versionList` does not name; null when the record leaves it out (unknown).',
      }),
    ),
    versionList: Type.Optional(
      Type.Array(AffectedVersion, {
        description: 'The versions and ranges as the record states them, what version checks evaluate (absent in older catalogs).',
      }),
    ),
  },
  { additionalProperties: false, description: 'A product the CNA (or, in `adpAffected`, an ADP) names as affected.' },
);
export type AffectedProduct = Static<typeof AffectedProduct>;

export const RecordReference = Type.Object(
  {
    url: Type.String(),
    name: Nullable(Type.String()),
    tags: Type.Array(Type.String(), { description: 'e.g. `vendor-advisory`, `patch`, `exploit`.' }),
  },
  { additionalProperties: false },
);
export type RecordReference = Static<typeof RecordReference>;

/** The detail fields, in the order they are served. */
export const recordDetailFields = {
  title: Nullable(Type.String(), { description: "The CNA's title, when it gave one." }),
  description: Nullable(Type.String(), { description: "The CNA's English description." }),
  state: Nullable(Type.String(), { description: '`PUBLISHED`; null when there is no public record.' }),
  assigner: Nullable(Type.String(), { description: 'Short name of the organisation the CVE id was assigned to, e.g. `redhat`.' }),
  datePublished: Nullable(Type.String({ format: 'date-time' }), { description: 'When the record was first published (UTC).' }),
  dateUpdated: Nullable(Type.String({ format: 'date-time' }), { description: 'When the record was last updated upstream (UTC).' }),
  problemTypes: Type.Array(ProblemType, { description: 'Weaknesses (CWE) of the CNA, then of each ADP.' }),
  metrics: Type.Array(CvssMetric, { description: 'Every CVSS score of the CNA, then of each ADP.' }),
  kev: Nullable(KnownExploited, { description: 'The KEV entry of the CISA-ADP container; null when the CVE is not in KEV.' }),
  ssvc: Nullable(SsvcDecisionPoints, { description: 'The first SSVC assessment of the record (the CNA, then each ADP); null when none.' }),
  affected: Type.Array(AffectedProduct),
  adpAffected: Type.Optional(
    Type.Array(AffectedProduct, {
      description: 'Products an ADP names as affected (CISA-ADP names them by CPE, with versions); absent when none does.',
    }),
  ),
  references: Type.Array(RecordReference, { description: "The CNA's references, then the ADPs' references to other URLs." }),
};

/** A catalog record's details: what the importer read from its CVE JSON 5 record. */
export const RecordDetails = Type.Object(recordDetailFields, { additionalProperties: false });
export type RecordDetails = Static<typeof RecordDetails>;

/** The details of a record with no public CVE record (or of a catalog that carries none). */
export const NO_DETAILS: RecordDetails = Object.freeze({
  title: null,
  description: null,
  state: null,
  assigner: null,
  datePublished: null,
  dateUpdated: null,
  problemTypes: [],
  metrics: [],
  kev: null,
  ssvc: null,
  affected: [],
  references: [],
});
