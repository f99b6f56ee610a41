// Semantic versions through the `semver` package (npm's own). Records write `6.1` or `4` for a series'
// first release (the Linux kernel's CNA among them): a version of one or two numbers reads as `6.1.0`.
import semver, { type SemVer } from 'semver';
import type { VersionOrder } from './order.js';

const SHORT = /^v?\d+(?:\.\d+)?$/i;

function parseSemver(text: string): SemVer | undefined {
  const short = SHORT.test(text) ? text.replace(/^v/i, '').split('.').concat('0', '0').slice(0, 3).join('.') : text;
  return semver.parse(short, { loose: true }) ?? undefined;
}

export const semverOrder: VersionOrder<SemVer> = { name: 'semver', parse: parseSemver, compare: (a, b) => a.compare(b) };
