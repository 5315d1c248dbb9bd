// The demo organization of `npm start` as the question sets meet it: a test app seeded with the demo
// (a small warehouse), the clock at the sets' "now", questions asked over HTTP as the demo analyst or
// run as an evaluation suite by the demo admin, and the expected rows read by DuckDB from the same
// warehouse file.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { startTestApp } from './app.ts';
import { DEMO_QUESTIONS_NOW, type AgentAnswer } from './demo-questions.ts';
import { answersHere, runSuite, type AnsweredQuestion, type Suite } from './suite-run.ts';

export interface DemoQuestionApp {
  /** Asks `question` in the chat `chatId` (follow-ups reuse it) and returns the recorded answer. */
  ask(chatId: string, question: string): Promise<AgentAnswer>;
  /** The rows `sql` gives over the demo warehouse. */
  expected(sql: string): Promise<unknown[][]>;
  /** Runs `suite` through the evaluation runner as the demo admin, its expected answers from this warehouse. */
  evaluate(suite: Suite): Promise<AnsweredQuestion[]>;
  stop(): Promise<void>;
}

export async function startDemoQuestionApp(): Promise<DemoQuestionApp> {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000' });
  t0.clock.set(DEMO_QUESTIONS_NOW);
  const token = t0.token((await findUserByEmail(t0.app.services.executor, 'analyst@demo.sextant.local'))!, 'api', DEMO_ORG_ID);
  const admin = t0.session((await findUserByEmail(t0.app.services.executor, 'admin@demo.sextant.local'))!, DEMO_ORG_ID);
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const expected = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  return {
    async ask(chatId, question) {
      const res = await t0.fetch('/api/agentic_with_history', {
        method: 'POST',
        headers: { 'API-KEY': token, 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: chatId, message: question }),
      });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      return (await res.json()) as AgentAnswer;
    },
    expected,
    evaluate: async (suite) => runSuite(t0, admin, await answersHere(suite, expected)),
    stop: () => t0.stop(),
  };
}
