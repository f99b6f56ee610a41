// Reads the examples out of Markdown as a person would copy them: the curl commands of its shell blocks
// (with their quoting, line continuations, pipes and trailing comments) and the CVE ids it names.

export interface CurlExample {
  /** The command as written, for failure messages. */
  readonly source: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** A status the trailing comment promises (`# 304`), else undefined (a 2xx is expected). */
  readonly documentedStatus: number | undefined;
}

const SHELL_BLOCK = /```(?:sh|bash|shell|console)\n([\s\S]*?)```/g;
const CVE_ID = /\bCVE-\d{4}-\d{4,}\b/g;

export const cveIdsIn = (text: string): string[] => [...new Set(text.match(CVE_ID) ?? [])];

/** The shell words of one command starting at `start`, and where it ends; `#` comments are returned apart. */
function shellWords(text: string, start: number): { words: string[]; comment: string; end: number } {
  const words: string[] = [];
  let word: string | undefined;
  let comment = '';
  let piped = false;
  let i = start;
  const push = () => {
    if (word !== undefined && !piped) words.push(word);
    word = undefined;
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === '\n') break;
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) throw new Error(`unbalanced ${c} in: ${text.slice(start, start + 200)}`);
      word = (word ?? '') + text.slice(i + 1, close);
      i = close;
    } else if (c === ' ' || c === '\t') {
      push();
    } else if (c === '#' && word === undefined) {
      const eol = text.indexOf('\n', i);
      comment = text.slice(i + 1, eol < 0 ? undefined : eol).trim();
      i = eol < 0 ? text.length : eol;
      break;
    } else if (c === '|' && word === undefined) {
      push();
      piped = true; // what the output is piped into is not part of the request
    } else {
      word = (word ?? '') + c;
    }
  }
  push();
  return { words, comment, end: i };
}

// Options that only shape what curl does with the answer; `-sD file` bundles flags before one of them.
const FLAGS_WITH_ARGUMENT = /^(?:-[siSNL]*[oDw]|--output|--dump-header|--write-out)$/;
const FLAGS_ALONE = /^-(?:[siSNLI]+|-compressed|-silent|-include|-no-buffer|-location)$/;

function curlExample(words: string[], source: string, comment: string): CurlExample {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const next = () => {
      const value = words[++i];
      if (value === undefined) throw new Error(`${w} without a value in: ${source}`);
      return value;
    };
    if (w === '-H' || w === '--header') {
      const header = next();
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (w === '-d' || w === '--data' || w === '--data-raw') body = next();
    else if (w === '-X' || w === '--request') method = next();
    else if (FLAGS_WITH_ARGUMENT.test(w)) next();
    else if (FLAGS_ALONE.test(w)) {
      if (w === '--compressed') headers['accept-encoding'] ??= 'gzip';
      if (/^-[a-zA-Z]*I/.test(w)) method = 'HEAD';
    } else if (/^https?:\/\//.test(w)) url = w;
    else throw new Error(`unknown curl word ${JSON.stringify(w)} in: ${source}`);
  }
  if (url === undefined) throw new Error(`no URL in: ${source}`);
  const status = /^(\d{3})\b/.exec(comment)?.[1];
  return {
    source,
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    url,
    headers,
    body,
    documentedStatus: status === undefined ? undefined : Number(status),
  };
}

/** Every curl command of the Markdown's shell blocks. */
export function curlExamples(markdown: string): CurlExample[] {
  const examples: CurlExample[] = [];
  for (const [, block] of markdown.matchAll(SHELL_BLOCK)) {
    const text = block!;
    for (const line of text.matchAll(/^curl\s/gm)) {
      const { words, comment, end } = shellWords(text, line.index);
      examples.push(curlExample(words, text.slice(line.index, end), comment));
    }
  }
  return examples;
}
