// The A2A skill "check-versions": a message naming package URLs with a version (`pkg:pypi/apache-airflow@2.7.0`)
// or CPE 2.3 names (`cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*`) is answered with the records saying that
// version is affected, each with the entry that matched, in the data shape of every other answer of the agent
// (the records, a score, a text). What reads a project and a version in plain words is /ask's, not this.
import type { RecordSearchResults, VersionCheckQuery } from '../../contract/index.js';
import { ServiceError } from '../../contract/index.js';
import { recordAt } from '../../core/record-table.js';
import { affectedWithReasons } from '../../core/version-checks.js';
import type { SurfaceContext } from '../shared/context.js';

/** Names checked in one message, and records listed for each: an answer stays readable. */
const MAX_NAMES = 10;
const RECORDS_PER_NAME = 20;

/** The purls and CPE names a text names, as queries; none when it names none (a question for search). */
export function versionQueries(text: string): VersionCheckQuery[] {
  return (
    text
      .split(/\s+/)
      .filter((word) => /^(?:pkg:|cpe:2\.3:)/i.test(word))
      // A name ending a sentence or a list keeps its version: "… pkg:npm/x@1.0.2, and …", "(cpe:2.3:…)?".
      .map((word) => word.replace(/[.,;!?)\]]+$/, ''))
      .slice(0, MAX_NAMES)
      .map((word) => (word.toLowerCase().startsWith('pkg:') ? { purl: word } : { cpe: word }))
  );
}

/** The answer to the queries: the affected records of each, what was read (or could not be) in `understood`. */
export async function versionAnswer(
  ctx: SurfaceContext,
  text: string,
  queries: readonly VersionCheckQuery[],
): Promise<RecordSearchResults> {
  const snapshot = ctx.store.current;
  const understood: string[] = [];
  const results: RecordSearchResults['results'] = [];
  for (const query of queries) {
    const name = query.purl ?? query.cpe ?? '';
    try {
      const { reasons, total } = await affectedWithReasons(snapshot, query, RECORDS_PER_NAME);
      understood.push(
        `${name}: ${total === 0 ? 'no record says this version is affected' : `affected, by ${total} record${total === 1 ? '' : 's'}`}`,
      );
      for (const { position, reason } of reasons) results.push({ record: recordAt(snapshot.table, position), score: 1, snippet: reason });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      understood.push(`${name}: not checked: ${error.message}`);
    }
  }
  return { query: text, understood, results };
}
