// Maven versions, compared as Maven's ComparableVersion compares them (maven-artifact): items split at `.`,
// `-` and digit/letter transitions, `-` and transitions opening a sub-list; numbers compare as numbers and
// are newer than qualifiers; known qualifiers in the order alpha < beta < milestone < rc = cr < snapshot <
// release (``, `ga`, `final`, `release`) < sp, others after them alphabetically; trailing nulls dropped, so
// `1.0` = `1` = `1.0.0-ga`. No npm package implements it; these lines follow the Java class.
import { compareDigits } from './dotted-order.js';
import type { VersionOrder } from './order.js';

type Item = { readonly kind: 'int'; readonly value: string } | { readonly kind: 'string'; readonly value: string } | MavenList;
interface MavenList {
  readonly kind: 'list';
  readonly items: Item[];
}

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Readonly<Record<string, string>> = { ga: '', final: '', release: '', cr: 'rc' };
const SHORT: Readonly<Record<string, string>> = { a: 'alpha', b: 'beta', m: 'milestone' };
const RELEASE = comparableQualifier('');
/** What a Maven version may hold: letters, digits and separators (anything else is not a Maven version here). */
const MAVEN = /^[0-9A-Za-z][0-9A-Za-z._+-]*$/;

function comparableQualifier(value: string): string {
  const index = QUALIFIERS.indexOf(value);
  return index >= 0 ? String(index) : `${QUALIFIERS.length}-${value}`;
}

function stringItem(value: string, followedByDigit: boolean): Item {
  const named = followedByDigit && value.length === 1 ? (SHORT[value] ?? value) : value;
  return { kind: 'string', value: ALIASES[named] ?? named };
}

function parseItem(isDigit: boolean, text: string): Item {
  return isDigit ? { kind: 'int', value: text.replace(/^0+(?=\d)/, '') } : stringItem(text, false);
}

const isNull = (item: Item): boolean =>
  item.kind === 'int' ? item.value === '0' : item.kind === 'string' ? comparableQualifier(item.value) === RELEASE : item.items.length === 0;

/** Drops trailing null items, as ListItem.normalize() does. */
function normalize(list: MavenList): void {
  for (let i = list.items.length - 1; i >= 0; i--) {
    const item = list.items[i]!;
    if (isNull(item)) list.items.splice(i, 1);
    else if (item.kind !== 'list') break;
  }
}

function parseMaven(text: string): MavenList | undefined {
  if (!MAVEN.test(text)) return undefined;
  const version = text.toLowerCase();
  const root: MavenList = { kind: 'list', items: [] };
  const stack: MavenList[] = [root];
  let list = root;
  let isDigit = false;
  let start = 0;
  const open = () => {
    const next: MavenList = { kind: 'list', items: [] };
    list.items.push(next);
    list = next;
    stack.push(next);
  };
  for (let i = 0; i < version.length; i++) {
    const c = version[i]!;
    if (c === '.' || c === '-') {
      list.items.push(i === start ? { kind: 'int', value: '0' } : parseItem(isDigit, version.slice(start, i)));
      start = i + 1;
      if (c === '-') open();
    } else if (c >= '0' && c <= '9') {
      if (!isDigit && i > start) {
        list.items.push(stringItem(version.slice(start, i), true));
        start = i;
        open();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.items.push(parseItem(true, version.slice(start, i)));
        start = i;
        open();
      }
      isDigit = false;
    }
  }
  if (version.length > start) list.items.push(parseItem(isDigit, version.slice(start)));
  while (stack.length > 0) normalize(stack.pop()!);
  return root;
}

/** Item.compareTo(other), with null for a missing item. */
function compareItem(a: Item, b: Item | null): number {
  switch (a.kind) {
    case 'int':
      if (b === null) return a.value === '0' ? 0 : 1;
      return b.kind === 'int' ? compareDigits(a.value, b.value) : 1;
    case 'string': {
      if (b === null) return compareStrings(comparableQualifier(a.value), RELEASE);
      if (b.kind === 'string') return compareStrings(comparableQualifier(a.value), comparableQualifier(b.value));
      return -1;
    }
    case 'list': {
      if (b === null) return a.items.length === 0 ? 0 : compareItem(a.items[0]!, null);
      if (b.kind === 'int') return -1;
      if (b.kind === 'string') return 1;
      const length = Math.max(a.items.length, b.items.length);
      for (let i = 0; i < length; i++) {
        const left = a.items[i] ?? null;
        const right = b.items[i] ?? null;
        const order = left === null ? (right === null ? 0 : -compareItem(right, null)) : compareItem(left, right);
        if (order !== 0) return order;
      }
      return 0;
    }
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const mavenOrder: VersionOrder<MavenList> = { name: 'maven', parse: parseMaven, compare: (a, b) => compareItem(a, b) };
