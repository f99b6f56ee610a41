// rpm versions, `[epoch:]version[-release]`, compared as rpm compares them: epochs as numbers, then version
// and release by rpmvercmp (rpm's lib/rpmvercmp.c: alternating digit and letter segments, a digit segment
// newer than a letter one, `~` older than anything, `^` newer than the end). No npm package implements it;
// these lines follow the C function step by step. A release only counts when both sides have one, as in
// rpm's own comparison of dependency ranges.
import { compareDigits } from './dotted-order.js';
import type { VersionOrder } from './order.js';

export interface Evr {
  readonly epoch: string;
  readonly version: string;
  readonly release: string | undefined;
}

const EVR = /^(?:(\d+):)?([^\s:-]+)(?:-([^\s:-]+))?$/;

function parseEvr(text: string): Evr | undefined {
  const match = EVR.exec(text);
  if (!match) return undefined;
  return { epoch: (match[1] ?? '0').replace(/^0+(?=\d)/, ''), version: match[2]!, release: match[3] };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
const isSegment = (c: string | undefined) => isDigit(c) || isAlpha(c);

/** rpm's rpmvercmp(a, b): -1, 0 or 1. */
export function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while (i < a.length && !isSegment(a[i]) && a[i] !== '~' && a[i] !== '^') i++;
    while (j < b.length && !isSegment(b[j]) && b[j] !== '~' && b[j] !== '^') j++;
    if (a[i] === '~' || b[j] === '~') {
      if (a[i] !== '~') return 1;
      if (b[j] !== '~') return -1;
      i++;
      j++;
      continue;
    }
    if (a[i] === '^' || b[j] === '^') {
      if (i >= a.length) return -1;
      if (j >= b.length) return 1;
      if (a[i] !== '^') return 1;
      if (b[j] !== '^') return -1;
      i++;
      j++;
      continue;
    }
    if (i >= a.length || j >= b.length) break;
    const numeric = isDigit(a[i]);
    const inSegment = numeric ? isDigit : isAlpha;
    const si = i;
    const sj = j;
    while (i < a.length && inSegment(a[i])) i++;
    while (j < b.length && inSegment(b[j])) j++;
    const x = a.slice(si, i);
    const y = b.slice(sj, j);
    // Segments of different kinds: the digit one is newer.
    if (y === '') return numeric ? 1 : -1;
    const order = numeric ? compareDigits(x.replace(/^0+/, ''), y.replace(/^0+/, '')) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  if (i >= a.length && j >= b.length) return 0;
  return i >= a.length ? -1 : 1;
}

function compareEvr(a: Evr, b: Evr): number {
  return (
    compareDigits(a.epoch, b.epoch) ||
    rpmvercmp(a.version, b.version) ||
    (a.release === undefined || b.release === undefined ? 0 : rpmvercmp(a.release, b.release))
  );
}

export const rpmOrder: VersionOrder<Evr> = { name: 'rpm', parse: parseEvr, compare: compareEvr };
