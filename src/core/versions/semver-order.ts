// Semantic versions through the `semver` package (npm's own): its parser, and its comparison of prerelease
// identifiers. Records of type semver also write `6.1` for a series' first release (the Linux kernel's
// CNA) and four numbers (`6.3.5.1`, Micro Focus, QuantaStor): versions of digits and dots compare as
// numbers, which is what semver says of the three it has, so the release numbers are kept as dotted
// numbers and the prerelease beside them.
import semver from 'semver';
import { compareDotted, type Dotted, parseDotted } from './dotted-order.js';
import type { VersionOrder } from './order.js';

export interface SemverKey {
  readonly release: Dotted;
  /** Prerelease identifiers; empty for a release, which comes after all of its prereleases. */
  readonly prerelease: readonly (string | number)[];
}

function parseSemver(text: string): SemverKey | undefined {
  const dotted = parseDotted(text);
  if (dotted !== undefined) return { release: dotted, prerelease: [] };
  const parsed = semver.parse(text, { loose: true });
  if (parsed === null) return undefined;
  return { release: parseDotted(`${parsed.major}.${parsed.minor}.${parsed.patch}`)!, prerelease: parsed.prerelease };
}

function compareSemver(a: SemverKey, b: SemverKey): number {
  const release = compareDotted(a.release, b.release);
  if (release !== 0) return release;
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const order = semver.compareIdentifiers(String(x), String(y));
    if (order !== 0) return order;
  }
  return 0;
}

export const semverOrder: VersionOrder<SemverKey> = { name: 'semver', parse: parseSemver, compare: compareSemver };
