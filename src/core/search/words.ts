// How text is cut into words. The index and the query parser share these two definitions, so a word
// typed in a query is spelled exactly as the index stored it and a filler word is dropped on both sides.

const NOT_A_WORD_CHARACTER = /[^\p{L}\p{N}]+/u;
const NOT_ASCII = /\P{ASCII}/u;

/** Lower-cased runs of letters and digits: `Node.js` gives `node`, `js`; `use-after-free` gives three words. */
export function words(text: string): string[] {
  const found: string[] = [];
  forEachWord(text, (word) => found.push(word));
  return found;
}

/**
 * Calls `visit` with each word of `words(text)`, in order. ASCII text (most of the corpus) is scanned by
 * character codes, which cuts the search index's build by a third; other text goes through the Unicode
 * expression. Both give the same words.
 */
export function forEachWord(text: string, visit: (word: string) => void): void {
  const lower = text.toLowerCase();
  if (NOT_ASCII.test(lower)) {
    for (const word of lower.split(NOT_A_WORD_CHARACTER)) if (word.length > 0) visit(word);
    return;
  }
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 0;
    const inWord = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      visit(lower.slice(start, i));
      start = -1;
    }
  }
}

/**
 * Words that say nothing about which record is wanted: question and function words ("which records
 * are…", "assigned but not yet public"), and the nouns every record shares. Every other word of a query
 * is required, so a conjunction left out of this list empties the answer. Kept to such words on
 * purpose; a word dropped here can never be searched for. `severity`, `cvss` and `score` ask about a record
 * ("the severity of CVE-…") rather than name one; beside a severity word they are read as a filter first. `before` and `after` are absent because "use
 * after free" needs them, `can` because it names a Linux subsystem, `so` because it names shared
 * objects. Year and status phrases (`in 2019`, `not public`) are read before this list applies, so
 * `in` and `not` still work there.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'about',
  'all',
  'also',
  'an',
  'and',
  'any',
  'are',
  'be',
  'been',
  'bug',
  'bugs',
  'but',
  'by',
  'could',
  'cve',
  'cves',
  'cvss',
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
  'it',
  'its',
  'known',
  'list',
  'me',
  'my',
  'no',
  'not',
  'of',
  'on',
  'or',
  'our',
  'please',
  'record',
  'records',
  'score',
  'search',
  'severity',
  'should',
  'show',
  'since',
  'some',
  'tell',
  'than',
  'that',
  'the',
  'their',
  'them',
  'there',
  'these',
  'they',
  'this',
  'those',
  'to',
  'until',
  'vuln',
  'vulnerabilities',
  'vulnerability',
  'vulns',
  'was',
  'we',
  'were',
  'what',
  'when',
  'where',
  'which',
  'who',
  'whom',
  'whose',
  'why',
  'with',
  'would',
  'yet',
  'you',
  'your',
]);
