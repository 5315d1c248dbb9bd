// The team's follow-up questions (test/helpers/demo-questions.ts) on the demo organization of `npm
// start`: each chat's questions asked in order over HTTP as the demo analyst, so a follow-up ("And in
// France?") reads the question before it. The rest of the team's set, asked one question per chat,
// is in the public suite (test/agent/offline-demo-suite.test.ts). No answer may be wrong and at least
// 95 % must be right. Expected results come from DuckDB over the same warehouse file.
import test from 'ava';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { startDemoQuestionApp, type DemoQuestionApp } from '../helpers/demo-question-app.ts';
import { DEMO_FOLLOW_UPS, type DemoQuestion } from '../helpers/demo-questions.ts';
import { judge, type Verdict } from '../helpers/question-set-judge.ts';

let demo: DemoQuestionApp;
const verdicts = new Map<DemoQuestion, Verdict>();

test.before(async () => {
  demo = await startDemoQuestionApp();
});
test.after.always(() => demo.stop());

const chats = new Map<string, DemoQuestion[]>();
for (const q of DEMO_FOLLOW_UPS) chats.set(q.chat!, [...(chats.get(q.chat!) ?? []), q]);

for (const [chatId, questions] of chats) {
  test.serial(`follow-ups, chat ${chatId}: ${questions.map((q) => `"${q.question}"`).join(' then ')}`, async (t) => {
    for (const q of questions) {
      const a = await demo.ask(chatId, q.question);
      t.is(a.status, 'completed', a.content);
      const verdict = await judge(q.expected, a, demo.expected);
      verdicts.set(q, verdict);
      if (verdict === 'refused') t.log(`refused "${q.question}": ${a.content.split(OFFLINE_UNSUPPORTED)[0]}`);
      t.not(verdict, 'wrong', `"${q.question}" answered wrongly:\n${a.content}\nSQL: ${a.sql.map((s) => s.sql).join('; ')}`);
    }
  });
}

test.serial('the follow-ups: no wrong answer and at least 95 % correct', (t) => {
  const count = (v: Verdict) => DEMO_FOLLOW_UPS.filter((q) => verdicts.get(q) === v).length;
  t.log(`follow_up: ${count('correct')} correct, ${count('wrong')} wrong, ${count('refused')} refused`);
  t.is(verdicts.size, DEMO_FOLLOW_UPS.length, 'every question was asked');
  t.is(count('wrong'), 0);
  t.true(count('correct') / DEMO_FOLLOW_UPS.length >= 0.95);
});
