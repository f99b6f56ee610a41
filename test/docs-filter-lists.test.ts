// The docs' lists of the list's filters, made from the one table of filters (src/contract/list-filters.ts),
// so that a filter added to the table fails here until the docs say it: each place a doc lists filters is
// found by the words around it and compared with what the table gives. `UPDATE_GOLDENS=1 npx vitest run
// test/docs-filter-lists.test.ts` writes the table's lists into the docs, as the goldens are rewritten.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filterNames, LIST_FILTERS, type ListFilter } from '../src/contract/list-filters.js';
import { repositoryPath } from './support/paths.js';

const code = (names: readonly string[]) => names.map((name) => `\`${name}\``);
const all = filterNames(LIST_FILTERS);
const streamed = filterNames(LIST_FILTERS, (filter) => filter.stream);
const onAffected = filterNames(LIST_FILTERS, (filter) => filter.reads === 'affected');
const onDetails = filterNames(LIST_FILTERS, (filter) => filter.reads === 'details');

/** A table row of a filter that reads the details: its parameter, its description and the values of a choice. */
function detailsRow(name: string): string {
  const schema = (LIST_FILTERS as Record<string, ListFilter>)[name]!.schema as { description?: string; enum?: readonly string[] };
  const choices = schema.enum === undefined ? '' : ` One of ${code(schema.enum).join(', ')}.`;
  return `| \`${name}\` | ${schema.description}${choices} |`;
}

interface Place {
  readonly file: string;
  /** What a doc says there: the text the table gives is the match of `found` in the doc. */
  readonly found: RegExp;
  readonly expected: string;
}

const PLACES: readonly Place[] = [
  {
    file: 'docs/API.md',
    found: /GET \/api\/v1\/cve-records\?limit&cursor[a-z_&]*/,
    expected: `GET /api/v1/cve-records?limit&cursor&${all.join('&')}`,
  },
  {
    file: 'docs/API.md',
    found: /\| parameter \| selects \|(?: values \|)?\n\|(?: --- \|)+\n(?:\|.*\|\n)+/,
    expected: ['| parameter | selects |', '| --- | --- |', ...onDetails.map(detailsRow), ''].join('\n'),
  },
  {
    file: 'docs/API.md',
    found:
      /The list filters \([^)]*\)\n {2}apply to records; removals reach every stream, since a removed record has no fields left to filter on\.\n {2}[^\n]* read the records' affected entries/,
    expected:
      `The list filters (${code(streamed).join(', ')})\n  apply to records; removals reach every stream, since a removed record has no fields left to filter on.\n` +
      `  ${code(onAffected)
        .join(', ')
        .replace(/, ([^,]*)$/, ' and $1')} read the records' affected entries`,
  },
  {
    file: 'docs/AGENTS.md',
    found: /\| `list_cve_records` \| `limit`, `cursor`[^|]* \(all optional\) \|/,
    expected: `| \`list_cve_records\` | ${code(['limit', 'cursor', ...all]).join(', ')} (all optional) |`,
  },
  {
    file: 'packages/sdk/README.md',
    found: /\/\/ Filters: [^;]*; limit and cursor page\./,
    expected: `// Filters: ${all.join(', ')}; limit and cursor page.`,
  },
];

describe.each([...new Set(PLACES.map((place) => place.file))])("%s's lists of the list's filters", (file) => {
  it('are the filter table’s', () => {
    const path = repositoryPath(file);
    let text = readFileSync(path, 'utf8');
    for (const { found, expected } of PLACES.filter((place) => place.file === file)) {
      const match = found.exec(text);
      expect(match, `${file} still has the place matched by ${found}`).not.toBeNull();
      if (process.env.UPDATE_GOLDENS === '1') text = text.replace(found, () => expected);
      else expect(match![0], `${file}: the filters as the table gives them`).toBe(expected);
    }
    if (process.env.UPDATE_GOLDENS === '1') writeFileSync(path, text);
  });
});
