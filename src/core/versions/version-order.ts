// How versions of each CVE JSON 5 `versionType` compare. A library where a well-kept one exists (semver,
// PEP 440); our own few lines where none does on the registry this project installs from (rpm's
// rpmvercmp, Maven's ComparableVersion), each written after its reference algorithm and tested against it.
import { dottedOrder } from './dotted-order.js';
import { mavenOrder } from './maven-order.js';
import type { AnyVersionOrder } from './order.js';
import { pythonOrder } from './python-order.js';
import { rpmOrder } from './rpm-order.js';
import { semverOrder } from './semver-order.js';

export type { AnyVersionOrder, VersionOrder } from './order.js';

const ORDERS: Readonly<Record<string, AnyVersionOrder>> = {
  semver: semverOrder,
  rpm: rpmOrder,
  maven: mavenOrder,
  python: pythonOrder,
  pypi: pythonOrder,
  pep440: pythonOrder,
};

/**
 * The order of a versionType. `git` has none (commits are ordered by ancestry, which a record does not
 * carry); `custom`, a missing type and every type not known here compare as dotted numbers, which read only
 * digits and dots (see dotted-order.ts).
 */
export function versionOrder(versionType: string | null | undefined): AnyVersionOrder | 'git' {
  const type = versionType?.trim().toLowerCase() ?? '';
  if (type === 'git') return 'git';
  return ORDERS[type] ?? dottedOrder;
}
