// The batch version check (issue 27), like OSV's querybatch: up to 100 questions "which records say this
// version of this project, package or CPE is affected?" in one request, counted once against the limit.
import Type, { type Static } from 'typebox';
import { CpeParameter, LIST_FILTERS, PurlParameter } from './list-filters.js';

export const VERSION_CHECK_MAX_QUERIES = 100;
/** The most ids one answer lists; the list with the same filters pages through the rest. */
export const VERSION_CHECK_MAX_IDS = 1000;

export const VersionCheckQuery = Type.Object(
  {
    project: Type.Optional(LIST_FILTERS.project.schema),
    purl: Type.Optional(PurlParameter),
    cpe: Type.Optional(CpeParameter),
    version: Type.Optional(LIST_FILTERS.version.schema),
  },
  {
    additionalProperties: false,
    description:
      'What to check: exactly one of `project`, `purl` or `cpe`, and a version, as `version` or in the purl (`@2.7.0`) ' +
      "or the CPE's version attribute (not both). The same rules as the list's filters of those names.",
    examples: [{ project: 'OpenSSL', version: '3.0.7' }],
  },
);
export type VersionCheckQuery = Static<typeof VersionCheckQuery>;

export const VersionCheckRequest = Type.Object(
  {
    queries: Type.Array(VersionCheckQuery, {
      minItems: 1,
      maxItems: VERSION_CHECK_MAX_QUERIES,
      description: `1 to ${VERSION_CHECK_MAX_QUERIES} checks, answered in this order.`,
    }),
    includeUnknown: Type.Optional(
      Type.Boolean({
        description: '`true`: each answer also lists, in `unknown`, the records that cannot tell whether the version is affected.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type VersionCheckRequest = Static<typeof VersionCheckRequest>;

const ids = (description: string) => Type.Array(Type.String(), { maxItems: VERSION_CHECK_MAX_IDS, description });

export const VersionCheckResult = Type.Object(
  {
    affected: ids('The records that say the version is affected, newest first.'),
    unknown: Type.Optional(ids('With `includeUnknown`: the records that name the subject but cannot tell, newest first.')),
    truncated: Type.Boolean({
      description: `Whether there are more than the ${VERSION_CHECK_MAX_IDS} ids a list holds: the list operation with the same filters pages through all of them.`,
    }),
  },
  { additionalProperties: false },
);
export type VersionCheckResult = Static<typeof VersionCheckResult>;

export const VersionCheckResponse = Type.Object(
  { results: Type.Array(VersionCheckResult, { description: 'One answer per query, in request order.' }) },
  { additionalProperties: false },
);
export type VersionCheckResponse = Static<typeof VersionCheckResponse>;
