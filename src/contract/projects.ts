// The projects operation: which project names the list's exact `project` filter takes, their other
// spellings, and how many records each holds. Closed objects, like the rest of the contract.
import Type, { type Static } from 'typebox';
import { MAX_CURSOR_LENGTH } from './parameters.js';
import { PAGE_LIMIT, Pagination } from './records.js';

export const MAX_PROJECT_QUERY_LENGTH = 200;

export const ProjectsQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_PROJECT_QUERY_LENGTH,
        description:
          'Only projects whose name or an alias begins with this text (any case), or that it names with a typo or ' +
          'run together ("nodejs", "opnssl").',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: PAGE_LIMIT.min,
        maximum: PAGE_LIMIT.max,
        default: PAGE_LIMIT.default,
        description: `Maximum number of projects to return, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}.`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CURSOR_LENGTH,
        description: "Opaque cursor from the previous page's `pagination.nextCursor`. Pass the same `q` with it.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ProjectsQuery = Static<typeof ProjectsQuery>;

export const ProjectRecordCounts = Type.Object(
  {
    public: Type.Integer({ minimum: 0 }),
    'assigned-no-public-record': Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, description: "The project's records by status." },
);

export const ProjectSummary = Type.Object(
  {
    name: Type.String({ description: 'The canonical name: what the list filter `project` takes, exactly.', examples: ['OpenSSL'] }),
    aliases: Type.Array(Type.String(), { description: 'Other spellings CNAs use for it, which search understands.' }),
    records: ProjectRecordCounts,
  },
  { additionalProperties: false, description: 'A project of the catalog.' },
);
export type ProjectSummary = Static<typeof ProjectSummary>;

export const ProjectPage = Type.Object(
  {
    lastVerified: Type.String({ format: 'date', description: 'Date the record list was last verified.' }),
    projects: Type.Array(ProjectSummary, { description: 'In name order.' }),
    pagination: Pagination,
  },
  { additionalProperties: false },
);
export type ProjectPage = Static<typeof ProjectPage>;
