// The batch version check: each query's subject (version-subjects.ts, as the list reads it) walked on its
// own records, the ids of those saying the version is affected (and unknown, when asked) collected. The
// walk yields between steps of a few hundred record checks, so that the worst batch (100 queries of the
// largest project at a version no range places) never holds the event loop for long; a query asked twice
// is answered once.
import {
  ServiceError,
  VERSION_CHECK_MAX_IDS,
  type VersionCheckQuery,
  type VersionCheckRequest,
  type VersionCheckResponse,
  type VersionCheckResult,
} from '../contract/index.js';
import type { Snapshot } from './snapshot.js';
import { type VersionSubject, versionSubjects } from './version-subjects.js';

/** Record checks between two yields: a check reads a record's ranges, a few microseconds (the kernel's, tens). */
const CHECKS_PER_STEP = 500;

/** The subject of each query, or the 400 that names the first query that cannot be read. */
function subjectsOf(snapshot: Snapshot, queries: readonly VersionCheckQuery[]): VersionSubject[] {
  return queries.map((query, index) => {
    const named = [query.project, query.purl, query.cpe].filter((value) => value !== undefined).length;
    const where = `/queries/${index}`;
    if (named !== 1) throw invalidQuery(where, 'give exactly one of `project`, `purl` or `cpe`.');
    let subjects: VersionSubject[];
    try {
      subjects = versionSubjects(snapshot, query);
    } catch (error) {
      if (error instanceof ServiceError) throw invalidQuery(where, error.message);
      throw error;
    }
    const subject = subjects[0];
    if (subject?.version === undefined) throw invalidQuery(where, 'give a version: `version`, or one in the purl or the CPE.');
    return subject;
  });
}

function invalidQuery(pointer: string, problem: string): ServiceError {
  return new ServiceError('invalid_body', `The request body does not match the schema: ${pointer} ${problem}`, {
    problems: [{ pointer, problem }],
  });
}

/** The answers to a batch, in steps (run them with `inSteps`). */
export function* versionCheckSteps(snapshot: Snapshot, request: VersionCheckRequest): Generator<void, VersionCheckResponse, void> {
  const subjects = subjectsOf(snapshot, request.queries);
  const { ids } = snapshot.table;
  const answered = new Map<string, VersionCheckResult>();
  const results: VersionCheckResult[] = [];
  let checks = 0;
  for (const [index, query] of request.queries.entries()) {
    const key = JSON.stringify([query.project, query.purl, query.cpe, query.version]);
    let result = answered.get(key);
    if (result === undefined) {
      const affected: string[] = [];
      const unknown: string[] = [];
      let truncated = false;
      for (const position of subjects[index]!.positions) {
        if (++checks % CHECKS_PER_STEP === 0) yield;
        const status = subjects[index]!.check(position)?.status;
        const list = status === 'affected' ? affected : status === 'unknown' && request.includeUnknown ? unknown : undefined;
        if (list === undefined) continue;
        if (list.length === VERSION_CHECK_MAX_IDS) {
          truncated = true;
          continue;
        }
        list.push(ids[position]!);
      }
      result = request.includeUnknown ? { affected, unknown, truncated } : { affected, truncated };
      answered.set(key, result);
    }
    results.push(result);
  }
  return { results };
}
