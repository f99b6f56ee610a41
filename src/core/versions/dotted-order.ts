// Dotted numbers (`6.1.63`, `10.0.19041`): the ordering of `custom` versions and of version types this service
// does not know. Only versions made of digits and dots are read; anything else (`16.7.1a`, `5.x`, `R2019a`)
// is not, so a check answers `unknown` rather than guess what a vendor's letters mean. Every ordering this
// service knows (semver, Maven, PEP 440, rpm) agrees with this one on such versions, up to trailing zeros.
import type { VersionOrder } from './order.js';

const DOTTED = /^v?\d+(?:\.\d+)*$/i;

/** Segments without leading zeros, trailing zero segments dropped: `1.2.0` and `1.2` are one version. */
export type Dotted = readonly string[];

export function parseDotted(text: string): Dotted | undefined {
  if (!DOTTED.test(text)) return undefined;
  const segments = text
    .replace(/^v/i, '')
    .split('.')
    .map((segment) => segment.replace(/^0+(?=\d)/, ''));
  while (segments.length > 1 && segments.at(-1) === '0') segments.pop();
  return segments;
}

/** Digit strings compare by length, then character by character: no limit on how large a segment is. */
export function compareDigits(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareDotted(a: Dotted, b: Dotted): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = compareDigits(a[i] ?? '0', b[i] ?? '0');
    if (order !== 0) return order;
  }
  return 0;
}

export const dottedOrder: VersionOrder<Dotted> = { name: 'dotted', parse: parseDotted, compare: compareDotted };
