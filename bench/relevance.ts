// `npm run bench relevance`: the judged question set (test/fixtures/search/judged-questions.json) over
// the shipped catalog: mean precision at 5 and at 10, the questions answered with nothing although the
// catalog holds right records, and the questions whose first five hold a wrong record, with those records.

import { readCatalogFile } from '../src/catalog/json/catalog-file.js';
import { DEFAULT_RECORDS_FILE } from '../src/cli/serve-options.js';
import { createSnapshot } from '../src/core/snapshot.js';
import { JUDGED_KINDS, readJudgedQuestions, scoreJudgedSet } from '../test/support/judged-questions.js';
import { table } from './support.js';

export async function relevanceSection(): Promise<void> {
  const catalog = await readCatalogFile(DEFAULT_RECORDS_FILE);
  const snapshot = createSnapshot(catalog);
  await snapshot.search.prepare();
  const questions = readJudgedQuestions();
  const scores = scoreJudgedSet(catalog, snapshot, questions);
  const format = (value: number) => value.toFixed(3);
  console.log(
    `\n### Relevance: ${questions.length} judged questions over the shipped catalog (${catalog.records.length.toLocaleString('en')} records)\n`,
  );
  console.log(
    table(
      JUDGED_KINDS.map((kind) => {
        const of = scores.questions.filter((score) => score.question.kind === kind);
        const mean = (pick: (score: (typeof of)[number]) => number) =>
          of.reduce((sum, score) => sum + pick(score), 0) / Math.max(1, of.length);
        return { kind, questions: of.length, 'P@5': format(mean((score) => score.p5)), 'P@10': format(mean((score) => score.p10)) };
      }),
    ),
  );
  console.log(`\nmean P@5 ${format(scores.meanP5)} (target >= 0.85): ${scores.meanP5 >= 0.85 ? 'met' : 'NOT met'}`);
  console.log(`mean P@10 ${format(scores.meanP10)}`);
  console.log(
    `questions answered with nothing while right records exist: ${scores.emptyWithAnswers.length} (target 0)${scores.emptyWithAnswers
      .map((score) => `\n- ${score.question.question} (${score.rightCount} right records)`)
      .join('')}`,
  );
  const missing = scores.questions.filter((score) => score.p5 < 1);
  console.log(`\n#### Questions whose first five miss (${missing.length})\n`);
  for (const score of missing) {
    console.log(
      `- "${score.question.question}" P@5 ${format(score.p5)}, ${score.rightCount} right, ${score.returned} returned; read as: ${score.understood.join('; ')}`,
    );
    for (const miss of score.misses) console.log(`  - ${miss.id} ${miss.project}: ${miss.summary}`);
  }
}
