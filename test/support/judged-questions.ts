// The judged question set (test/fixtures/search/judged-questions.json): questions in everyday wording,
// each with its right records defined by the records' own fields, the way the list filters define them
// (project, CWE, KEV, highest severity, publication date, status) plus the affected vendor and words of
// the description. Scored as precision of the first answers. Shared by `npm run bench relevance` and the
// floor test (test/core/search-judged-set.test.ts), so both score the same way.
import { readFileSync } from 'node:fs';
import {
  type CatalogFile,
  type CatalogRecord,
  RECORD_STATUSES,
  type RecordStatus,
  SEVERITIES,
  type Severity,
} from '../../src/contract/index.js';
import { detailFilters } from '../../src/core/record-table.js';
import { search } from '../../src/core/search/search.js';
import { severityOfCode } from '../../src/core/severity.js';
import type { Snapshot } from '../../src/core/snapshot.js';
import { repositoryUrl } from './paths.js';

/** What makes a record a right answer: every field given must hold (and one of `anyOf`, when given). */
export interface Judgement {
  /** The record's project is one of these (exact, as the list filter's `project`). */
  readonly project?: readonly string[];
  /**
   * One of these words (case-insensitive, at a word start) is in an affected product's vendor or in the
   * record's project name: a reader takes "Cisco IOS" for a Cisco record whatever the vendor field says.
   */
  readonly vendor?: readonly string[];
  /** It names one of these weaknesses (the list filter's `cwe`). */
  readonly cwe?: readonly string[];
  /** In CISA's KEV catalog or not (the list filter's `kev`). */
  readonly kev?: boolean;
  /** Its highest CVSS severity is one of these (the list filter's `severity`). */
  readonly severity?: readonly Severity[];
  readonly status?: RecordStatus;
  /** Inclusive bounds on the year of its CVE id (what a reader calls "a 2024 CVE"). */
  readonly idYear?: { readonly from?: number; readonly to?: number };
  /** Published on or after `since` and before `before` (the list filters `published_since`/`published_before`). */
  readonly published?: { readonly since?: string; readonly before?: string };
  /**
   * Words of its description (title, description, summary; case-insensitive, at a word start): each group
   * must be met by one of its phrases.
   */
  readonly text?: readonly (readonly string[])[];
  /** At least one of these holds too. */
  readonly anyOf?: readonly Judgement[];
}

export interface JudgedQuestion {
  readonly question: string;
  /** Which kind of wording it tries (the list): topic, vendor, project, vocabulary, cwe, severity, kev, time, status. */
  readonly kind: string;
  readonly right: Judgement;
  readonly why?: string;
}

export const JUDGED_KINDS = ['topic', 'vendor', 'project', 'vocabulary', 'cwe', 'severity', 'kev', 'time', 'status'] as const;

export function readJudgedQuestions(): JudgedQuestion[] {
  const file = JSON.parse(readFileSync(repositoryUrl('test/fixtures/search/judged-questions.json'), 'utf8')) as {
    questions: JudgedQuestion[];
  };
  return file.questions;
}

/** Whether `phrase` occurs in `text` (both lower case) at a word start; a space or hyphen in it matches either. */
function hasPhrase(text: string, phrase: string): boolean {
  for (const spelling of new Set([phrase, phrase.replaceAll('-', ' '), phrase.replaceAll(' ', '-')])) {
    for (let at = text.indexOf(spelling); at >= 0; at = text.indexOf(spelling, at + 1)) {
      if (at === 0 || !/[\p{L}\p{N}]/u.test(text.charAt(at - 1))) return true;
    }
  }
  return false;
}

/** What the judgements read of a record, worked out once per record. */
interface RecordFacts {
  readonly filters: ReturnType<typeof detailFilters>;
  /** Title, description and summary, lower case. */
  readonly text: string;
  /** The project and every affected vendor, lower case. */
  readonly names: readonly string[];
}
const factsOf = new WeakMap<CatalogRecord, RecordFacts>();
function facts(record: CatalogRecord): RecordFacts {
  let found = factsOf.get(record);
  if (!found) {
    const details = record.details;
    found = {
      filters: detailFilters(details),
      text: [details?.title, details?.description, record.summary].filter(Boolean).join('\n').toLowerCase(),
      names: [record.project, ...(details?.affected ?? []).map((product) => product.vendor ?? '')].map((name) => name.toLowerCase()),
    };
    factsOf.set(record, found);
  }
  return found;
}

/** Whether the record is a right answer. */
export function meets(record: CatalogRecord, right: Judgement): boolean {
  const { filters, text, names } = facts(record);
  if (right.project && !right.project.includes(record.project)) return false;
  if (right.vendor) {
    if (!right.vendor.some((word) => names.some((name) => hasPhrase(name, word)))) return false;
  }
  if (right.cwe && !right.cwe.some((cwe) => filters.cwes.includes(cwe))) return false;
  if (right.kev !== undefined && filters.kev !== right.kev) return false;
  if (right.severity && !right.severity.includes(severityOfCode(filters.severity) as Severity)) return false;
  if (right.status && record.status !== right.status) return false;
  if (right.idYear) {
    const year = Number(record.id.slice(4, 8));
    if (right.idYear.from !== undefined && year < right.idYear.from) return false;
    if (right.idYear.to !== undefined && year > right.idYear.to) return false;
  }
  if (right.published) {
    const day = record.published?.slice(0, 10);
    if (day === undefined) return false;
    if (right.published.since !== undefined && day < right.published.since) return false;
    if (right.published.before !== undefined && day >= right.published.before) return false;
  }
  if (right.text && !right.text.every((group) => group.some((phrase) => hasPhrase(text, phrase)))) return false;
  if (right.anyOf && !right.anyOf.some((alternative) => meets(record, alternative))) return false;
  return true;
}

/** Checks a judgement names only what exists, so a typo in the fixture fails loudly instead of judging nothing. */
export function judgementProblems(right: Judgement): string[] {
  const problems: string[] = [];
  for (const severity of right.severity ?? []) if (!SEVERITIES.includes(severity)) problems.push(`unknown severity ${severity}`);
  if (right.status && !RECORD_STATUSES.includes(right.status)) problems.push(`unknown status ${right.status}`);
  for (const cwe of right.cwe ?? []) if (!/^CWE-\d+$/.test(cwe)) problems.push(`malformed ${cwe}`);
  for (const alternative of right.anyOf ?? []) problems.push(...judgementProblems(alternative));
  return problems;
}

export interface QuestionScore {
  readonly question: JudgedQuestion;
  /** How many records of the catalog are right answers. */
  readonly rightCount: number;
  readonly returned: number;
  /** Right answers among the first 5 (10), over min(5 (10), rightCount): a question with 2 right records can score 1. */
  readonly p5: number;
  readonly p10: number;
  /** The answers among the first 5 that are not right. */
  readonly misses: readonly { readonly id: string; readonly project: string; readonly summary: string }[];
  readonly understood: readonly string[];
}

export interface JudgedScores {
  readonly questions: readonly QuestionScore[];
  readonly meanP5: number;
  readonly meanP10: number;
  /** Questions answered with nothing although the catalog holds right records. */
  readonly emptyWithAnswers: readonly QuestionScore[];
}

/** Scores every question against a snapshot of `catalog` (the same records). */
export function scoreJudgedSet(catalog: CatalogFile, snapshot: Snapshot, questions: readonly JudgedQuestion[]): JudgedScores {
  const byId = new Map(catalog.records.map((record) => [record.id, record]));
  const scored = questions.map((question): QuestionScore => {
    const rightCount = catalog.records.reduce((n, record) => n + (meets(record, question.right) ? 1 : 0), 0);
    const result = search(snapshot, question.question, 10);
    const ids = result.hits.map((hit) => hit.entry.record.id);
    const isRight = (id: string) => meets(byId.get(id)!, question.right);
    const precision = (k: number) => {
      const wanted = Math.min(k, rightCount);
      if (wanted === 0) return ids.length === 0 ? 1 : 0;
      return ids.slice(0, k).filter(isRight).length / wanted;
    };
    return {
      question,
      rightCount,
      returned: ids.length,
      p5: precision(5),
      p10: precision(10),
      misses: result.hits
        .slice(0, 5)
        .filter((hit) => !isRight(hit.entry.record.id))
        .map((hit) => ({ id: hit.entry.record.id, project: hit.entry.record.project, summary: (hit.entry.summary ?? '').slice(0, 100) })),
      understood: result.explanation,
    };
  });
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    questions: scored,
    meanP5: mean(scored.map((score) => score.p5)),
    meanP10: mean(scored.map((score) => score.p10)),
    emptyWithAnswers: scored.filter((score) => score.rightCount > 0 && score.returned === 0),
  };
}
