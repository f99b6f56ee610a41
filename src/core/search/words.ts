// How text is cut into words. The index and the query parser share these two definitions, so a word
// typed in a query is spelled exactly as the index stored it and a filler word is dropped on both sides.

const NOT_A_WORD_CHARACTER = /[^\p{L}\p{N}]+/u;

/** Lower-cased runs of letters and digits: `Node.js` gives `node`, `js`; `use-after-free` gives three words. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(NOT_A_WORD_CHARACTER)
    .filter((word) => word.length > 0);
}

/**
 * Words that say nothing about which record is wanted: question filler, and the nouns every record
 * shares. Kept short on purpose; a word dropped here can never be searched for. `before` and `after`
 * are absent because "use after free" needs them. Year and status phrases (`in 2019`, `not public`)
 * are read before this list applies, so `in` and `not` still work there.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'about',
  'all',
  'an',
  'and',
  'any',
  'are',
  'bug',
  'bugs',
  'by',
  'cve',
  'cves',
  'did',
  'do',
  'does',
  'find',
  'for',
  'from',
  'get',
  'give',
  'has',
  'have',
  'how',
  'in',
  'is',
  'issue',
  'issues',
  'list',
  'me',
  'no',
  'not',
  'of',
  'on',
  'or',
  'please',
  'record',
  'records',
  'search',
  'show',
  'since',
  'that',
  'the',
  'there',
  'to',
  'until',
  'vuln',
  'vulnerabilities',
  'vulnerability',
  'vulns',
  'what',
  'which',
  'with',
  'yet',
]);
