// What a version is checked against: a project, a package (purl) or a CPE name. The list's filters and the
// batch check read the same subjects: the records that may answer (a position list, in listing order) and
// each one's status at the version. A project's records at a version are found by its ranges (range-index.ts)
// where they can be, so only the records the ranges leave are checked one by one. A purl or CPE may carry its own version (`pkg:npm/x@1.2.3`, the CPE's
// version attribute); the version is then not given again beside it.
import { MAX_VERSION_PARAMETER_LENGTH, ServiceError, VERSION_PATTERN, type VersionStatus } from '../contract/index.js';
import { partitionPoint } from './partition-point.js';
import type { Snapshot } from './snapshot.js';
import { type CpeAttributes, CpeError, isSpecific, parseCpeQuery, VERSION } from './versions/cpe-name.js';
import { PurlError, purlPackage } from './versions/package-key.js';
import { projectNameKeys } from './versions/product-names.js';
import type { RangeAnswer } from './versions/range-index.js';
import type { RecordVerdict } from './versions/record-check.js';
import type { VersionIndex, VersionParts } from './versions/version-index.js';

export interface VersionSubject {
  /** The records that may name the subject, in listing order. */
  readonly positions: Int32Array;
  /** The version to check: the subject's own, or the one given beside it; undefined when none is. */
  readonly version: string | undefined;
  /** The record's status at the version (affected for a record naming it, without one); undefined when it does not name it. */
  check(position: number): RecordVerdict | undefined;
  /**
   * The record's status when it is one asked for (`affected`, or `unknown` too with includeUnknown), else
   * undefined: what the list and the batch read, from the ranges where they answer.
   */
  askedStatus(position: number): VersionStatus | undefined;
}

/** What asks for a version check: at most one of each subject, and a version beside them. */
export interface SubjectQuery {
  readonly project?: string | undefined;
  readonly purl?: string | undefined;
  readonly cpe?: string | undefined;
  readonly version?: string | undefined;
  /** Whether records whose status is `unknown` are asked for too. */
  readonly includeUnknown?: boolean | undefined;
}

/** A version as the version parameter takes it: what a purl or CPE carries must be one too. */
const VERSION_TEXT = new RegExp(VERSION_PATTERN);
const NAMED: RecordVerdict = Object.freeze({ status: 'affected', source: null, product: null, entry: null });

/**
 * The subjects of a query: the project only when a version is given (otherwise it is a plain filter), the
 * purl and the CPE always. A 400 for a purl or CPE that cannot be read, a version given twice, or a
 * version with nothing to check it against.
 */
export function versionSubjects(snapshot: Snapshot, query: SubjectQuery): VersionSubject[] {
  const { project, purl, cpe, version } = query;
  const asked = statusesAsked(query.includeUnknown);
  const subjects: VersionSubject[] = [];
  if (purl !== undefined) subjects.push(checkedOneByOne(purlSubject(snapshot.versions.get(), purl, version), asked));
  if (cpe !== undefined) subjects.push(checkedOneByOne(cpeSubject(snapshot.versions.get(), cpe, version), asked));
  if (version !== undefined) {
    if (project === undefined && subjects.length === 0) {
      throw new ServiceError('invalid_parameter', '`version` needs `project`, `purl` or `cpe`: the version of what.');
    }
    if (project !== undefined) subjects.push(projectSubject(snapshot, project, version, asked));
  }
  return subjects;
}

/**
 * What queries' subjects read of the version index beside the records: the ranges of a project asked at a
 * version, the package and CPE lists for a purl or CPE.
 */
function partsOf(snapshot: Snapshot, queries: readonly SubjectQuery[]): VersionParts {
  const projects = new Set<number>();
  let names = false;
  for (const { project, purl, cpe, version } of queries) {
    if (purl !== undefined || cpe !== undefined) names = true;
    const code = project === undefined || version === undefined ? undefined : snapshot.filters.projectCode(project);
    if (code !== undefined) projects.add(code);
  }
  return { projects: [...projects], names };
}

/** Whether the version index holds what the queries read, so that answering them builds nothing. */
export function subjectsReady(snapshot: Snapshot, queries: readonly SubjectQuery[]): boolean {
  return snapshot.versions.built && snapshot.versions.get().ready(partsOf(snapshot, queries));
}

/** What the queries read of the version index, built in steps between other requests. */
export async function prepareSubjects(snapshot: Snapshot, queries: readonly SubjectQuery[]): Promise<void> {
  const index = await snapshot.versions.prepare();
  await index.prepare(partsOf(snapshot, queries));
}

type CheckedSubject = Omit<VersionSubject, 'askedStatus'>;

/** A subject whose every record is checked one by one. */
function checkedOneByOne(subject: CheckedSubject, asked: ReadonlySet<VersionStatus>): VersionSubject {
  return {
    ...subject,
    askedStatus(position) {
      const status = subject.check(position)?.status;
      return status !== undefined && asked.has(status) ? status : undefined;
    },
  };
}

function projectSubject(snapshot: Snapshot, project: string, version: string, asked: ReadonlySet<VersionStatus>): VersionSubject {
  const index = snapshot.versions.get();
  // The spellings only for a record checked one by one: most pages and batches read the ranges alone.
  let names: ReadonlySet<string> | undefined;
  const check = (position: number) => {
    names ??= projectNameKeys(project, snapshot.aliases.get(project) ?? []);
    return index.checkProject(position, version, names);
  };
  const code = snapshot.filters.projectCode(project);
  const ranged = code === undefined ? undefined : index.findInProject(code, version, asked);
  if (ranged === undefined) return checkedOneByOne({ positions: snapshot.filters.project(project), version, check }, asked);
  return { positions: ranged.positions, version, check, askedStatus: rangedStatus(ranged, check, asked) };
}

/**
 * A record's asked status from the ranges: the one they found it at, by bisection in `found`; a record they
 * leave is checked; any other record of the project has no status asked for.
 */
function rangedStatus(
  { found, statuses, checked }: RangeAnswer,
  check: (position: number) => RecordVerdict,
  asked: ReadonlySet<VersionStatus>,
): (position: number) => VersionStatus | undefined {
  // A list page and a batch read positions in ascending order: each lookup first tries the place after the last one found.
  const inFound = placeFinder(found);
  const inChecked = placeFinder(checked);
  return (position) => {
    const at = inFound(position);
    if (at >= 0) return statuses[at];
    if (inChecked(position) < 0) return undefined;
    const { status } = check(position);
    return asked.has(status) ? status : undefined;
  };
}

/** The place of a position in an ascending list (or -1), looked at first just after the place last found. */
function placeFinder(positions: Int32Array): (position: number) => number {
  let next = 0;
  return (position) => {
    if (positions[next] === position) return next++;
    const at = indexOf(positions, position);
    if (at >= 0) next = at + 1;
    return at;
  };
}

/** The place of a position in an ascending list, or -1. */
function indexOf(positions: Int32Array, position: number): number {
  const low = partitionPoint(0, positions.length, (i) => positions[i]! < position);
  return low < positions.length && positions[low] === position ? low : -1;
}

function purlSubject(index: VersionIndex, purl: string, given: string | undefined): CheckedSubject {
  let found: ReturnType<typeof purlPackage>;
  try {
    found = purlPackage(purl);
  } catch (error) {
    if (error instanceof PurlError)
      throw new ServiceError('invalid_parameter', `\`purl\` is no package URL this service reads: ${error.message}`);
    throw error;
  }
  const version = carried(found.version, given, 'purl');
  const { key } = found;
  return {
    positions: index.packagePositions(key),
    version,
    check: (position) =>
      version === undefined ? (index.namesPackage(position, key) ? NAMED : undefined) : index.checkPackage(position, key, version),
  };
}

function cpeSubject(index: VersionIndex, cpe: string, given: string | undefined): CheckedSubject {
  let attributes: CpeAttributes;
  try {
    attributes = parseCpeQuery(cpe);
  } catch (error) {
    if (error instanceof CpeError)
      throw new ServiceError('invalid_parameter', `\`cpe\` is no CPE name this service reads: ${error.message}`);
    throw error;
  }
  const own = isSpecific(attributes[VERSION]!) ? attributes[VERSION] : undefined;
  const version = carried(own, given, 'cpe');
  return { positions: index.cpePositions(attributes), version, check: (position) => index.checkCpe(position, { attributes, version }) };
}

/** The version a purl or CPE is checked at: its own or the one beside it, never both; one that is a version. */
function carried(own: string | undefined, given: string | undefined, name: string): string | undefined {
  if (own === undefined) return given;
  if (given !== undefined) throw new ServiceError('invalid_parameter', `The version is given twice: in \`${name}\` and in \`version\`.`);
  if (own.length > MAX_VERSION_PARAMETER_LENGTH || !VERSION_TEXT.test(own)) {
    throw new ServiceError(
      'invalid_parameter',
      `The version in \`${name}\` is no version: letters, digits and . _ + ~ : ^ - only, at most ${MAX_VERSION_PARAMETER_LENGTH} characters.`,
    );
  }
  return own;
}

/** Whether a subject's answer for a record is one asked for: affected, or unknown too when asked. */
export function statusesAsked(includeUnknown: boolean | undefined): ReadonlySet<VersionStatus> {
  return new Set<VersionStatus>(includeUnknown ? ['affected', 'unknown'] : ['affected']);
}
