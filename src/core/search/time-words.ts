// Time as people say it: "since March 2024", "in december 2024", "this year", "last month", "past 30
// days", "recent", "latest". Read on the publication date (the list filters' `published_since` and
// `published_before`), relative to the catalog's lastVerified date, the day the catalog speaks for:
// "last month" of a catalog verified on 2025-01-24 is December 2024 whenever it is asked. A bare year
// ("in 2024") is not read here: it names the CVE id's year (query-understanding.ts).
import { NO_DATE } from '../record-table.js';

/** Days since 1970-01-01 (UTC): `since` inclusive, `before` exclusive; an absent bound is open. */
export interface DayRange {
  readonly since?: number;
  readonly before?: number;
}

export interface TimePhrase {
  readonly length: number;
  readonly range: DayRange;
}

/** What "recent" and "latest" span, back from lastVerified. */
export const RECENT_DAYS = 90;

const MONTHS: ReadonlyMap<string, number> = new Map(
  [
    ['january', 'jan'],
    ['february', 'feb'],
    ['march', 'mar'],
    ['april', 'apr'],
    ['may', 'may'],
    ['june', 'jun'],
    ['july', 'jul'],
    ['august', 'aug'],
    ['september', 'sep'],
    ['october', 'oct'],
    ['november', 'nov'],
    ['december', 'dec'],
  ].flatMap(([name, short], month) => [
    [name!, month],
    [short!, month],
  ]),
);
const UNIT_DAYS: ReadonlyMap<string, number> = new Map([
  ['day', 1],
  ['days', 1],
  ['week', 7],
  ['weeks', 7],
  ['month', 30],
  ['months', 30],
  ['year', 365],
  ['years', 365],
]);
const RECENT_WORDS = new Set(['recent', 'recently', 'latest', 'newest']);
const LEADS = new Set(['in', 'during', 'from', 'since', 'after', 'before', 'until', 'till']);
const LAST = new Set(['last', 'past', 'previous']);
const MAX_UNITS = 100;

const day = (year: number, month: number, date = 1) => Date.UTC(year, month, date) / 86_400_000;

/** A time phrase starting at `i`, or undefined; `today` is lastVerified as a day number. */
export function timePhrase(tokens: readonly string[], i: number, today: number): TimePhrase | undefined {
  const lead = LEADS.has(tokens[i] ?? '') ? tokens[i]! : undefined;
  const j = lead === undefined ? i : i + 1;
  const word = tokens[j];
  const next = tokens[j + 1];
  const now = new Date(today * 86_400_000);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  let span: { from: number; to: number; length: number } | undefined;
  if (word !== undefined && MONTHS.has(word) && next !== undefined && /^\d{4}$/.test(next)) {
    const m = MONTHS.get(word)!;
    span = { from: day(Number(next), m), to: day(Number(next), m + 1), length: 2 };
  } else if (word === 'this' && (next === 'year' || next === 'month' || next === 'week')) {
    if (next === 'year') span = { from: day(year, 0), to: day(year + 1, 0), length: 2 };
    else if (next === 'month') span = { from: day(year, month), to: day(year, month + 1), length: 2 };
    else span = { from: today - 6, to: today + 1, length: 2 };
  } else if (word !== undefined && LAST.has(word)) {
    const count = Number(next);
    if (next !== undefined && /^\d{1,3}$/.test(next) && count > 0 && count <= MAX_UNITS && UNIT_DAYS.has(tokens[j + 2] ?? '')) {
      span = { from: today - count * UNIT_DAYS.get(tokens[j + 2]!)! + 1, to: today + 1, length: 3 };
    } else if (next === 'year' || next === 'month' || next === 'week') {
      // "last year" and "last month" are the calendar's; "past year" the 365 days before.
      if (word === 'past') span = { from: today - UNIT_DAYS.get(next)! + 1, to: today + 1, length: 2 };
      else if (next === 'year') span = { from: day(year - 1, 0), to: day(year, 0), length: 2 };
      else if (next === 'month') span = { from: day(year, month - 1), to: day(year, month), length: 2 };
      else span = { from: today - 13, to: today - 6, length: 2 };
    }
  } else if (word !== undefined && RECENT_WORDS.has(word) && lead === undefined) {
    span = { from: today - RECENT_DAYS + 1, to: today + 1, length: 1 };
  }
  if (!span) return undefined;
  const length = j - i + span.length;
  // "'s" after "last month" ("last month's") belongs to the phrase.
  const possessive = tokens[i + length] === 's' ? 1 : 0;
  switch (lead) {
    case 'since':
    case 'from':
      return {
        length: length + possessive,
        range: lead === 'from' && span.length > 1 ? { since: span.from, before: span.to } : { since: span.from },
      };
    case 'after':
      return { length: length + possessive, range: { since: span.to } };
    case 'before':
      return { length: length + possessive, range: { before: span.from } };
    case 'until':
    case 'till':
      return { length: length + possessive, range: { before: span.to } };
    default:
      return { length: length + possessive, range: { since: span.from, before: span.to } };
  }
}

/** Narrows `a` by `b`: both conditions hold. */
export function intersectDays(a: DayRange | undefined, b: DayRange): DayRange {
  const since = Math.max(a?.since ?? Number.NEGATIVE_INFINITY, b.since ?? Number.NEGATIVE_INFINITY);
  const before = Math.min(a?.before ?? Number.POSITIVE_INFINITY, b.before ?? Number.POSITIVE_INFINITY);
  return { ...(Number.isFinite(since) ? { since } : {}), ...(Number.isFinite(before) ? { before } : {}) };
}

export function dayText(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

export function describeDays({ since, before }: DayRange): string {
  if (since !== undefined && before !== undefined) {
    return before <= since ? 'published: no day fits' : `published ${dayText(since)} to ${dayText(before - 1)}`;
  }
  return since !== undefined ? `published since ${dayText(since)}` : `published before ${dayText(before!)}`;
}

/** Whether a record published on day `published` (NO_DATE: never) is in the range; no range holds every record. */
export function inDays(range: DayRange | undefined, published: number): boolean {
  if (!range) return true;
  if (published === NO_DATE) return false;
  return (range.since === undefined || published >= range.since) && (range.before === undefined || published < range.before);
}
