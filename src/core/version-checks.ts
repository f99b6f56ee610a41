// The batch version check: each query's subject (version-subjects.ts, as the list reads it) walked on its
// own records (a project's found by its ranges where they answer), the ids of those saying the version is
// affected (and unknown, when asked) collected. The walk yields every few milliseconds, so that the worst
// batch (100 queries of the largest project at versions the ranges leave to record-by-record checks) never
// holds the event loop for long; a query asked twice is answered once.
import {
  ServiceError,
  VERSION_CHECK_MAX_IDS,
  type VersionCheckQuery,
  type VersionCheckRequest,
  type VersionCheckResponse,
  type VersionCheckResult,
} from '../contract/index.js';
import { inSteps } from './derived.js';
import type { Snapshot } from './snapshot.js';
import { prepareSubjects, type VersionSubject, versionSubjects } from './version-subjects.js';
import { describeVerdict } from './versions/record-check.js';

/**
 * How long the walk runs before it yields, and how many records it reads between two looks at the clock: a
 * record the ranges found costs a bisection, one they leave a check of its ranges (a few microseconds, the
 * kernel's tens), so a count of records says little of the time taken.
 */
const STEP_MS = 2;
const CLOCK_EVERY = 64;

/** The subject of each query, or the 400 that names the first query that cannot be read. */
function subjectsOf(snapshot: Snapshot, queries: readonly VersionCheckQuery[], includeUnknown: boolean | undefined): VersionSubject[] {
  return queries.map((query, index) => {
    try {
      return subjectOf(snapshot, query, includeUnknown);
    } catch (error) {
      if (error instanceof ServiceError) throw invalidQuery(`/queries/${index}`, error.message);
      throw error;
    }
  });
}

/** The subject of one query, with its version; a ServiceError saying what is missing or cannot be read. */
function subjectOf(snapshot: Snapshot, query: VersionCheckQuery, includeUnknown: boolean | undefined): VersionSubject {
  const named = [query.project, query.purl, query.cpe].filter((value) => value !== undefined).length;
  if (named !== 1) throw new ServiceError('invalid_parameter', 'give exactly one of `project`, `purl` or `cpe`.');
  const [subject] = versionSubjects(snapshot, { ...query, includeUnknown });
  if (subject?.version === undefined) {
    throw new ServiceError('invalid_parameter', 'give a version: `version`, or one in the purl or the CPE.');
  }
  return subject;
}

function invalidQuery(pointer: string, problem: string): ServiceError {
  return new ServiceError('invalid_body', `The request body does not match the schema: ${pointer} ${problem}`, {
    problems: [{ pointer, problem }],
  });
}

/** The answers to a batch, in steps (checkVersions runs them). */
function* versionCheckSteps(snapshot: Snapshot, request: VersionCheckRequest): Generator<void, VersionCheckResponse, void> {
  const subjects = subjectsOf(snapshot, request.queries, request.includeUnknown);
  const { ids } = snapshot.table;
  const answered = new Map<string, VersionCheckResult>();
  const results: VersionCheckResult[] = [];
  let stepStarted = performance.now();
  let visited = 0;
  for (const [index, query] of request.queries.entries()) {
    const key = JSON.stringify([query.project, query.purl, query.cpe, query.version]);
    let result = answered.get(key);
    if (result === undefined) {
      const affected: string[] = [];
      const unknown: string[] = [];
      let truncated = false;
      for (const position of subjects[index]!.positions) {
        if (++visited % CLOCK_EVERY === 0 && performance.now() - stepStarted > STEP_MS) {
          yield;
          stepStarted = performance.now();
        }
        const status = subjects[index]!.askedStatus(position);
        const list = status === 'affected' ? affected : status === 'unknown' ? unknown : undefined;
        if (list === undefined) continue;
        if (list.length === VERSION_CHECK_MAX_IDS) {
          truncated = true;
          // Nothing more can be added once every list asked for is full (the kernel's 6.1.5 is 5,000 records at 340,000).
          if (affected.length === VERSION_CHECK_MAX_IDS && (!request.includeUnknown || unknown.length === VERSION_CHECK_MAX_IDS)) break;
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

/** The answers to a batch, once the version index is built, in steps between other requests. */
export async function checkVersions(snapshot: Snapshot, request: VersionCheckRequest): Promise<VersionCheckResponse> {
  await prepareSubjects(snapshot, request.queries);
  return inSteps(versionCheckSteps(snapshot, request));
}

/** A record a version affects, and why: the entry of the record that matched, in words. */
export interface VersionReason {
  readonly position: number;
  readonly reason: string;
}

/**
 * The records one query's version affects, newest first, at most `limit` with the entry that matched; and
 * how many there are. One subject's records, walked at once: a single query costs what one list page does
 * (the records are counted as the list counts them, by the project's ranges; only those given a reason are
 * checked one by one, for the entry that matched).
 */
export async function affectedWithReasons(
  snapshot: Snapshot,
  query: VersionCheckQuery,
  limit: number,
): Promise<{ reasons: VersionReason[]; total: number }> {
  await prepareSubjects(snapshot, [query]);
  const subject = subjectOf(snapshot, query, false);
  const index = snapshot.versions.get();
  const reasons: VersionReason[] = [];
  let total = 0;
  for (const position of subject.positions) {
    if (subject.askedStatus(position) !== 'affected') continue;
    total++;
    if (reasons.length === limit) continue;
    const verdict = subject.check(position);
    const versions = index.versionsAt(position);
    if (verdict !== undefined && versions !== undefined) reasons.push({ position, reason: describeVerdict(versions, verdict) });
  }
  return { reasons, total };
}
