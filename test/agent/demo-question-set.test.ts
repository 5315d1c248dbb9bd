// The team's question set (test/helpers/demo-questions.ts) on the demo organization of `npm start`:
// its generated warehouse and its fixtures knowledge, asked over HTTP as the demo analyst, follow-ups
// in their chat. No answer may be wrong, at least 95 % must be right, and every question outside
// the family must be refused. Expected results come from DuckDB over the same warehouse file.
import test from 'ava';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { startDemoQuestionApp, type DemoQuestionApp } from '../helpers/demo-question-app.ts';
import { DEMO_QUESTIONS, type DemoQuestion, type QuestionClass } from '../helpers/demo-questions.ts';
import { judge, type Verdict } from '../helpers/question-set-judge.ts';

let demo: DemoQuestionApp;
const verdicts = new Map<DemoQuestion, Verdict>();

test.before(async () => {
  demo = await startDemoQuestionApp();
});
test.after.always(() => demo.stop());

const ask = (chatId: string, question: string) => demo.ask(chatId, question);
const expected = (sql: string) => demo.expected(sql);

const chats = new Map<string, DemoQuestion[]>();
DEMO_QUESTIONS.forEach((q, i) => chats.set(q.chat ?? `single-${i}`, [...(chats.get(q.chat ?? `single-${i}`) ?? []), q]));

for (const [chatId, questions] of chats) {
  test.serial(`question set, chat ${chatId}: ${questions.map((q) => `"${q.question}"`).join(' then ')}`, async (t) => {
    for (const q of questions) {
      const a = await ask(chatId, q.question);
      t.is(a.status, 'completed', a.content);
      const verdict = await judge(q, a, expected);
      verdicts.set(q, verdict);
      if (verdict === 'refused') t.log(`refused "${q.question}": ${a.content.split(OFFLINE_UNSUPPORTED)[0]}`);
      t.not(verdict, 'wrong', `"${q.question}" (${q.class}) answered wrongly:\n${a.content}\nSQL: ${a.sql.map((s) => s.sql).join('; ')}`);
      if ('refuse' in q.expected) t.is(verdict, 'correct', `"${q.question}" must be refused`);
    }
  });
}

test.serial('the question set has at least 60 questions, no wrong answer and at least 95 % correct', (t) => {
  t.true(DEMO_QUESTIONS.length >= 60);
  const classes = [...new Set(DEMO_QUESTIONS.map((q) => q.class))];
  const count = (cls: QuestionClass | undefined, v: Verdict) => DEMO_QUESTIONS.filter((q) => (!cls || q.class === cls) && verdicts.get(q) === v).length;
  for (const cls of [...classes, undefined]) t.log(`${cls ?? 'all'}: ${count(cls, 'correct')} correct, ${count(cls, 'wrong')} wrong, ${count(cls, 'refused')} refused`);
  t.is(verdicts.size, DEMO_QUESTIONS.length, 'every question was asked');
  t.is(count(undefined, 'wrong'), 0);
  t.true(count(undefined, 'correct') / DEMO_QUESTIONS.length >= 0.95);
});
