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
  },
  { additionalProperties: false, description: 'A product the CNA names as affected.' },
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
