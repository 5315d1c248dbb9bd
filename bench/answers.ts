// Answer quality of the offline model on the demo organization: its public suite
// (fixtures/evaluations/offline-demo.yaml) and the team's follow-ups (test/helpers/demo-questions.ts),
// right / wrong / refused by family, and the time per answer. The
// reference, measured in the same run, is the same set asked in an environment whose table
// documentation has no governed metrics and no coverage (the knowledge before issue 26).
// `BENCH_ORDERS` sets the demo warehouse size (default: the `npm start` size, 120,000 orders).
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { findUserByEmail } from '../src/auth/index.ts';
import { DEMO_ORG_ID } from '../src/compose/demo/seed-demo.ts';
import { call } from '../test/helpers/api.ts';
import { startTestApp, type TestApp } from '../test/helpers/app.ts';
import { demoQuestions, DEMO_QUESTIONS_NOW, type AgentAnswer, type DemoQuestion } from '../test/helpers/demo-questions.ts';
import { judge, type Verdict } from '../test/helpers/question-set-judge.ts';

const ORDERS = process.env['BENCH_ORDERS'] ?? '120000';
const DEMO_QUESTIONS = demoQuestions();

async function askAll(t0: TestApp, token: string, env: string | undefined, expected: (sql: string) => Promise<unknown[][]>) {
  const verdicts = new Map<DemoQuestion, Verdict>();
  const ms: number[] = [];
  for (const [i, q] of DEMO_QUESTIONS.entries()) {
    const started = performance.now();
    const res = await call(t0, 'POST', '/api/agentic_with_history', { token, ...(env ? { env } : {}), body: { chat_id: `${env ?? 'prod'}-${q.chat ?? i}`, message: q.question } });
    ms.push(performance.now() - started);
    verdicts.set(q, await judge(q.expected, res.body as AgentAnswer, expected));
  }
  return { verdicts, ms: ms.sort((a, b) => a - b) };
}

function print(label: string, { verdicts, ms }: Awaited<ReturnType<typeof askAll>>): number {
  console.log(`\n${label}`);
  const classes = [...new Set(DEMO_QUESTIONS.map((q) => q.class)), undefined];
  for (const cls of classes) {
    const of = DEMO_QUESTIONS.filter((q) => !cls || q.class === cls);
    const n = (v: Verdict) => of.filter((q) => verdicts.get(q) === v).length;
    console.log(`  ${(cls ?? 'all').padEnd(14)} ${String(of.length).padStart(3)} questions: ${n('correct')} right, ${n('wrong')} wrong, ${n('refused')} refused`);
  }
  console.log(`  time per answer: p50 ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, max ${ms.at(-1)!.toFixed(0)} ms`);
  return DEMO_QUESTIONS.filter((q) => verdicts.get(q) === 'wrong').length;
}

/** Strips metrics and coverage from the demo tables in a new environment; returns its id. */
async function withoutMetrics(t0: TestApp, admin: string): Promise<string> {
  const env = (await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'No metrics', color: '#999999' } })).body.id as string;
  for (const id of ['main.orders', 'main.order_items']) {
    const path = `/api/knowledge/tables/demo_warehouse%2F${id}`;
    const { metrics: _m, coverage: _c, ...rest } = (await call(t0, 'GET', path, { token: admin })).body.data as Record<string, unknown>;
    await call(t0, 'PUT', path, { token: admin, env, body: rest });
  }
  return env;
}

export async function run(): Promise<void> {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: ORDERS, SEXTANT_LOG_LEVEL: 'warn' });
  try {
    t0.clock.set(DEMO_QUESTIONS_NOW);
    const admin = t0.session((await findUserByEmail(t0.app.services.executor, 'admin@demo.sextant.local'))!, DEMO_ORG_ID);
    const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    const expected = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
    console.log(`demo warehouse with ${ORDERS} orders, ${DEMO_QUESTIONS.length} questions`);
    const governed = await askAll(t0, admin, undefined, expected);
    const reference = await askAll(t0, admin, await withoutMetrics(t0, admin), expected);
    const wrong = print('with governed metrics and coverage (production knowledge)', governed);
    const wrongBefore = print('reference: the same knowledge without metrics and coverage', reference);
    console.log(`\nwrong answers: ${wrong} with metrics vs ${wrongBefore} without`);
    conn.closeSync();
    instance.closeSync();
  } finally {
    await t0.stop();
  }
}
