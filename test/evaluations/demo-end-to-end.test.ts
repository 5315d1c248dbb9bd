// Evaluations end to end on the demo organization of `npm start`, with the offline model, in a real
// gateway process: the demo evaluation's expected answers equal its SQL on the demo warehouse; a run on
// production passes; a run killed with SIGKILL in the middle finishes after a restart with every result
// kept; an environment that redefines revenue is named, question for question, by the comparison; the
// required gate refuses its merge, and the admin's override goes through and is recorded.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayChild, type GatewayChild } from '../helpers/gateway-child.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sextant-eval-e2e-'));
const ENV = {
  SEXTANT_DATA_DIR: dataDir,
  SEXTANT_SEED_DEMO: 'true',
  SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000',
  // One question at a time, so that the run is still going when the kill below lands, as soon as the
  // first question has its result.
  SEXTANT_EVAL_CONCURRENCY: '1',
  SEXTANT_LOG_LEVEL: 'debug',
  SEXTANT_JWT_SECRET: 'e2e-jwt-secret-e2e-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'e2e',
};

let gw: GatewayChild | undefined;
test.after.always(async () => {
  await gw?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(method: string, path: string, token: string, body?: unknown, env?: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(gw!.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(env ? { 'x-service-environment': env } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${gw!.url}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: email, password }) });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Reads the run until its first question has a result. Asked of the gateway, not its log: a log line
 * may leave up to 200 ms late (batches), by which time the offline model may have answered them all.
 */
async function firstAnswered(token: string, runId: string): Promise<void> {
  for (;;) {
    const run = (await api('GET', `/api/evaluation_runs/${runId}`, token)).body;
    if (run.questions.some((q: Json) => q.result !== 'pending')) return;
  }
}

/** The run once the gateway logged its end. */
async function finished(token: string, runId: string): Promise<Json> {
  await gw!.waitForLog((l) => l['msg'] === 'evaluation run finished' && l['run_id'] === runId);
  return (await api('GET', `/api/evaluation_runs/${runId}`, token)).body;
}

const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 1e-6);

test('on the demo with the offline model: production passes, a killed run resumes, and the gate names the one regressed question', async (t) => {
  t.timeout(180_000);
  gw = await startGatewayChild(ENV);
  const admin = await signIn('admin@demo.sextant.local', 'demo-admin-password');
  const warehouse = await DuckDBInstance.create(join(dataDir, 'warehouse', 'demo', 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const wh = await warehouse.connect();
  const sql = async (q: string) => (await wh.runAndReadAll(q)).getRowsJson()[0]![0];

  // The demo evaluation: at least 12 questions whose expected answers are what their SQL gives on this warehouse.
  const definition = (await api('GET', '/api/evaluations/core-questions', admin)).body;
  t.true(definition.questions.length >= 12);
  for (const q of definition.questions) {
    const value = await sql(q.expected_sql);
    if (q.answer_type === 'date') t.is(String(value).slice(0, 10), q.expected_answer, q.id);
    else t.true(near(Number(q.expected_answer), Number(value)), `${q.id}: ${q.expected_answer} = ${String(value)}`);
  }

  // 1. A run on production passes: every question answered right.
  const prodRun = await finished(admin, (await api('POST', '/api/evaluations/core-questions/runs', admin, { target: { kind: 'production' } })).body.id);
  t.is(prodRun.verdict, 'pass', JSON.stringify(prodRun.questions.filter((q: Json) => q.result !== 'pass').map((q: Json) => [q.id, q.observed, q.error, q.answer])));
  t.is(prodRun.summary.pass, definition.questions.length);

  // 2. SIGKILL in the middle of a run, then a restart on the same data folder: the run finishes, nothing written is lost.
  const killed = (await api('POST', '/api/evaluations/core-questions/runs', admin, { target: { kind: 'production' }, trigger: 'manual' })).body.id as string;
  await firstAnswered(admin, killed);
  await gw.kill();
  const db = new Database(join(dataDir, 'sextant.db'));
  const before = db.prepare('SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position').all(killed) as Json[];
  const status = db.prepare('SELECT status FROM evaluation_runs WHERE id = ?').pluck().get(killed);
  db.close();
  const done = before.filter((r) => r.result !== 'pending');
  t.is(status, 'running', 'the kill landed mid-run');
  t.true(done.length >= 1 && done.length < before.length, `${done.length} of ${before.length} answered before the kill`);
  gw = await startGatewayChild(ENV);
  const resumed = await finished(admin, killed);
  t.like(resumed, { status: 'completed', verdict: 'pass' });
  const after = new Database(join(dataDir, 'sextant.db'), { readonly: true });
  const rows = after.prepare('SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position').all(killed) as Json[];
  after.close();
  for (const r of done) t.deepEqual(rows.find((x) => x.question_id === r.question_id), r, `${r.question_id} kept as written`);
  t.true(rows.some((r) => r.started_at !== null && before.find((b) => b.question_id === r.question_id)?.result === 'pending'), 'pending questions were asked after the restart');

  // 3. In an environment, revenue is redefined (completed orders only): exactly that question regresses.
  const env = (await api('POST', '/api/environments', admin, { name: 'Revenue: completed only', color: '#aa3300' })).body;
  const tableId = encodeURIComponent('demo_warehouse/main.orders');
  const orders = (await api('GET', `/api/knowledge/tables/${tableId}`, admin, undefined, env.id)).body.data;
  const revenue = orders.metrics.find((m: Json) => m.name === 'revenue');
  revenue.filter = "status = 'completed'";
  t.is((await api('PUT', `/api/knowledge/tables/${tableId}`, admin, orders, env.id)).status, 200);
  const pending = (await api('GET', `/api/environments/${env.id}/evaluation_diff`, admin)).body;
  t.is(pending.status, 'pending');
  for (const id of [pending.evaluations[0].environment_run_id, pending.evaluations[0].production_run_id]) await finished(admin, id);
  const diff = (await api('GET', `/api/environments/${env.id}/evaluation_diff`, admin)).body;
  t.is(diff.status, 'ready');
  const completedOnly = Number(await sql("SELECT SUM(total_amount) FROM main.orders WHERE status = 'completed' AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"));
  const expectedRevenue = definition.questions.find((q: Json) => q.id === 'revenue.2025').expected_answer;
  t.is(diff.regressions.length, 1, JSON.stringify(diff.regressions));
  t.like(diff.regressions[0], { evaluation_id: 'core-questions', question_id: 'revenue.2025', expected: expectedRevenue, production_observed: expectedRevenue, environment_result: 'fail' });
  t.true(near(diff.regressions[0].environment_observed, completedOnly));
  t.like(diff.evaluations[0].comparison.summary, { regressed: 1, still_passing: definition.questions.length - 1 });

  // 4. The required gate refuses the merge; the admin's override goes through and is recorded in the merge commit.
  t.is((await api('PUT', '/api/evaluations/settings', admin, { evaluation_gate: 'required' })).status, 200);
  const refused = await api('POST', `/api/environments/${env.id}/merge`, admin, { confirm: true });
  t.is(refused.status, 409);
  t.is(refused.body.code, 'EVALUATION_REGRESSION');
  t.deepEqual(refused.body.data.regressions.map((r: Json) => r.question_id), ['revenue.2025']);
  const merged = await api('POST', `/api/environments/${env.id}/merge`, admin, { confirm: true, override_evaluations: true });
  t.is(merged.status, 200);
  t.is(merged.body.merge, 'merged');
  const log = (await api('GET', '/api/knowledge/model/history?limit=1', admin)).body.commits[0];
  t.regex(log.message, /Evaluation gate overridden by admin@demo\.sextant\.local: 1 evaluation\(s\), 1 regressed question\(s\)/);
  t.regex(log.message, /core-questions\/revenue\.2025: expected /);
  wh.closeSync();
  warehouse.closeSync();
});
