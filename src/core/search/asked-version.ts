// "openssl 3.0.7", "is log4j 2.14.1 vulnerable": a version in a question is checked against the projects
// the question names, as the list's `project=…&version=…` checks it (version-subjects.ts), and only the
// records saying that version is affected answer. Without a project to check it against, the version is
// set aside and the reading says so. The records are read as the list reads them (a project's by its
// ranges, only those they leave checked one by one), in steps between which other requests run.
import type { Snapshot } from '../snapshot.js';
import { versionSubjects } from '../version-subjects.js';
import { findNamedProjects } from './named-projects.js';
import type { QueryUnderstanding } from './query-understanding.js';
import { vendorFamilies } from './vendor-families.js';

/** A vendor word names hundreds of projects; a version belongs to a product, so only a few are checked. */
const MAX_VERSIONED_PROJECTS = 8;
/** Records read between two yields: one the ranges found costs a lookup, one they leave a check of its entries. */
const CHECKS_PER_STEP = 500;

export interface AskedVersion {
  /** The records saying the version is affected; undefined when no project was named to check it against. */
  readonly affected: ReadonlySet<number> | undefined;
  readonly explanation: string;
}

/** The records a question's version affects, checked in steps (run them with `inSteps`, or at once with `settled`). */
export function* askedVersionSteps(
  snapshot: Snapshot,
  { version, terms }: QueryUnderstanding,
): Generator<void, AskedVersion | undefined, void> {
  if (version === undefined) return undefined;
  const named = findNamedProjects(snapshot.search.get(), vendorFamilies(snapshot.table), terms);
  // Projects named as spelled or by an alias; a name's start or a typo only when none is.
  const spelled = named.filter((match) => match.kind === 'exact' || match.kind === 'alias');
  const chosen = spelled.length > 0 ? spelled : named.filter((match) => match.kind === 'prefix' || match.kind === 'typo');
  const projects = [...new Set(chosen.flatMap((match) => match.projects))].slice(0, MAX_VERSIONED_PROJECTS);
  if (projects.length === 0) return { affected: undefined, explanation: `version ${version}: no project named to check it against` };
  const affected = new Set<number>();
  let checks = 0;
  for (const project of projects) {
    // The project's ranges, built here in steps when no version of it was asked before.
    const code = snapshot.filters.projectCode(project);
    if (code !== undefined) yield* snapshot.versions.get().projectSteps(code);
    for (const subject of versionSubjects(snapshot, { project, version })) {
      for (const position of subject.positions) {
        if (++checks % CHECKS_PER_STEP === 0) yield;
        if (subject.askedStatus(position) === 'affected') affected.add(position);
      }
    }
  }
  const which = projects.join(', ');
  return {
    affected,
    explanation:
      affected.size === 0
        ? `version ${version} of ${which}: no record says it is affected`
        : `version ${version} of ${which}: ${affected.size} record${affected.size === 1 ? ' says' : 's say'} it is affected`,
  };
}
