// The offline question table on the demo organization of `npm start`: its generated warehouse and its
// fixtures knowledge, asked over HTTP as the demo analyst. Each answer must equal the hand-written query.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/demo/seed-demo.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { OFFLINE_QUESTIONS } from '../helpers/offline-questions.ts';

let t0: TestApp;
let token: string;
let expected: (sql: string) => Promise<unknown[][]>;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000' });
  token = t0.token(findUserByEmail(t0.app.services.store.db, 'analyst@demo.sextant.local')!, 'api', DEMO_ORG_ID);
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  expected = async (sql) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
});
test.after.always(() => t0.stop());

const norm = (rows: unknown[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Math.round(Number(v) * 100) / 100 : typeof v === 'number' ? Math.round(v * 100) / 100 : v)));

test('the demo question table has at least 30 questions', (t) => {
  t.true(OFFLINE_QUESTIONS.length >= 30);
});

for (const [question, sql] of OFFLINE_QUESTIONS) {
  test.serial(`demo warehouse: "${question}"`, async (t) => {
    const res = await t0.fetch('/api/agentic_with_history', {
      method: 'POST',
      headers: { 'API-KEY': token, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: `q-${OFFLINE_QUESTIONS.findIndex(([q]) => q === question)}`, message: question }),
    });
    t.is(res.status, 200);
    const body = (await res.json()) as { status: string; content: string; tables: { rows: unknown[][] }[]; sql: { sql: string }[] };
    t.is(body.status, 'completed', body.content);
    t.is(body.tables.length, 1, body.content);
    t.deepEqual(norm(body.tables[0]!.rows), norm(await expected(sql)), body.sql[0]?.sql);
  });
}
