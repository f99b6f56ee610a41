// The abbreviations and everyday names of weaknesses people type, and the words the records use for
// them ("xss" is what records call "cross-site scripting", "uaf" a "use after free"), so either finds
// both. Each reading is a spelling of the term: the word as typed is still searched, a record meets the
// term by any one spelling (query-understanding.ts). The CWE ids say which weakness the words name, for
// the explanation; the phrases are spelled without the filler words the index drops ("denial of service"
// is `denial service`). Kept small on purpose: a few spellings per word bound what a query expands to.

export interface SecurityTerm {
  /** The word as people type it, lower case. */
  readonly word: string;
  /** What the records say instead, most used first. */
  readonly phrases: readonly string[];
  /** The weaknesses the word names. */
  readonly cwes: readonly string[];
}

export const SECURITY_TERMS: readonly SecurityTerm[] = [
  { word: 'xss', phrases: ['cross site scripting'], cwes: ['CWE-79'] },
  { word: 'sqli', phrases: ['sql injection'], cwes: ['CWE-89'] },
  { word: 'rce', phrases: ['remote code execution', 'execute arbitrary code', 'code execution'], cwes: ['CWE-94'] },
  { word: 'csrf', phrases: ['cross site request forgery'], cwes: ['CWE-352'] },
  { word: 'xsrf', phrases: ['cross site request forgery', 'csrf'], cwes: ['CWE-352'] },
  { word: 'ssrf', phrases: ['server side request forgery'], cwes: ['CWE-918'] },
  { word: 'lfi', phrases: ['local file inclusion', 'file inclusion'], cwes: ['CWE-98'] },
  { word: 'rfi', phrases: ['remote file inclusion', 'file inclusion'], cwes: ['CWE-98'] },
  { word: 'uaf', phrases: ['use after free'], cwes: ['CWE-416'] },
  { word: 'dos', phrases: ['denial service'], cwes: ['CWE-400'] },
  { word: 'ddos', phrases: ['denial service'], cwes: ['CWE-400'] },
  { word: 'eop', phrases: ['elevation privilege', 'privilege escalation'], cwes: ['CWE-269'] },
  { word: 'lpe', phrases: ['privilege escalation', 'elevation privilege', 'gain privileges'], cwes: ['CWE-269'] },
  { word: 'privesc', phrases: ['privilege escalation', 'elevation privilege', 'gain privileges'], cwes: ['CWE-269'] },
  { word: 'idor', phrases: ['insecure direct object reference', 'authorization bypass user controlled key'], cwes: ['CWE-639'] },
  { word: 'xxe', phrases: ['xml external entity'], cwes: ['CWE-611'] },
  { word: 'mitm', phrases: ['man middle'], cwes: ['CWE-300'] },
  { word: 'bof', phrases: ['buffer overflow'], cwes: ['CWE-120'] },
  { word: 'oob', phrases: ['out bounds'], cwes: ['CWE-125', 'CWE-787'] },
  { word: 'npd', phrases: ['null pointer dereference'], cwes: ['CWE-476'] },
  { word: 'toctou', phrases: ['race condition', 'time check time use'], cwes: ['CWE-367'] },
  { word: 'redos', phrases: ['regular expression denial service'], cwes: ['CWE-1333'] },
  { word: 'deserialisation', phrases: ['deserialization'], cwes: ['CWE-502'] },
  { word: 'hardcoded', phrases: ['hard coded'], cwes: ['CWE-798'] },
];

const BY_WORD = new Map(SECURITY_TERMS.map((term) => [term.word, term]));

export function securityTermOf(word: string): SecurityTerm | undefined {
  return BY_WORD.get(word);
}

/** The records' phrases for weaknesses ("cross site scripting"), as words. */
const PHRASES: readonly (readonly string[])[] = [...new Set(SECURITY_TERMS.flatMap((term) => term.phrases))]
  .map((phrase) => phrase.split(' '))
  .filter((phrase) => phrase.length > 1);

/**
 * Positions of the words that spell a weakness together, as the records say it ("cross site scripting"):
 * such a phrase names the weakness, so none of its words is read as a project's name ("Scripting").
 */
export function weaknessPhraseWords(words: readonly string[]): Set<number> {
  const inPhrase = new Set<number>();
  for (let start = 0; start < words.length; start++) {
    for (const phrase of PHRASES) {
      if (phrase.every((word, i) => words[start + i] === word)) for (let i = 0; i < phrase.length; i++) inPhrase.add(start + i);
    }
  }
  return inPhrase;
}
