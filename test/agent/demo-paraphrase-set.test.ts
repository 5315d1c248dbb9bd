// The paraphrase set (test/helpers/demo-paraphrases.ts) on the demo organization of `npm start`, in
// the harness of the team's set (demo-question-set.test.ts): asked over HTTP as the demo analyst,
// judged against DuckDB over the same warehouse file. No answer may be wrong, every question outside
// the family must be refused, a typo's reading is stated, and the run prints correct / refused per family.
import test from 'ava';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { startDemoQuestionApp, type DemoQuestionApp } from '../helpers/demo-question-app.ts';
import { DEMO_PARAPHRASES } from '../helpers/demo-paraphrases.ts';
import { type DemoQuestion, type QuestionClass } from '../helpers/demo-questions.ts';
import { judge, type Verdict } from '../helpers/question-set-judge.ts';

let demo: DemoQuestionApp;
const verdicts = new Map<DemoQuestion, Verdict>();

test.before(async () => {
  demo = await startDemoQuestionApp();
});
test.after.always(() => demo.stop());

const ask = (chatId: string, question: string) => demo.ask(chatId, question);
const expected = (sql: string) => demo.expected(sql);

for (const [i, q] of DEMO_PARAPHRASES.entries()) {
  test.serial(`paraphrase (${q.class}): "${q.question}"`, async (t) => {
    {
      const a = await ask(`paraphrase-${i}`, q.question);
      t.is(a.status, 'completed', a.content);
      const verdict = await judge(q, a, expected);
      verdicts.set(q, verdict);
      if (verdict === 'refused') t.log(`refused "${q.question}": ${a.content.split(OFFLINE_UNSUPPORTED)[0]}`);
      t.not(verdict, 'wrong', `"${q.question}" (${q.class}) answered wrongly:\n${a.content}\nSQL: ${a.sql.map((s) => s.sql).join('; ')}`);
      if ('refuse' in q.expected) t.is(verdict, 'correct', `"${q.question}" must be refused`);
      if (q.class === 'typos' && verdict === 'correct' && 'sql' in q.expected) t.regex(a.content, /^Reading '[^']+' as '[^']+'\./, 'the reading of a typo is stated');
    }
  });
}

test.serial('a typo with two equally close readings is refused, naming both, never guessed', async (t) => {
  const a = await ask('ambiguous', 'How many ordes are there?');
  t.deepEqual(a.sql, []);
  t.true(a.content.includes(OFFLINE_UNSUPPORTED));
  t.regex(a.content, /"ordes" could be "order" or "orders"/);
});

test.serial('the paraphrase set: no wrong answer, correct and refused printed per family', (t) => {
  const classes = [...new Set(DEMO_PARAPHRASES.map((q) => q.class))];
  const count = (cls: QuestionClass | undefined, v: Verdict) => DEMO_PARAPHRASES.filter((q) => (!cls || q.class === cls) && verdicts.get(q) === v).length;
  for (const cls of [...classes, undefined]) t.log(`${cls ?? 'all'}: ${count(cls, 'correct')} correct, ${count(cls, 'wrong')} wrong, ${count(cls, 'refused')} refused`);
  t.is(verdicts.size, DEMO_PARAPHRASES.length, 'every question was asked');
  t.is(count(undefined, 'wrong'), 0);
});
