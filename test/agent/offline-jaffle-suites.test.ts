// The offline model on a warehouse it was not written for: the jaffle shop, imported from its dbt
// artifacts and merged (as in test/imports/dbt/jaffle-shop.test.ts), with its public suites
// (fixtures/dbt/jaffle_shop/evaluations: the canonical questions and their paraphrases) run through
// the evaluation runner as a modeler runs them. Every answer is judged against its expected_sql over
// the same warehouse: no answer may be wrong, every question without expected_sql is refused, and the
// run prints correct / refused per family.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../helpers/jaffle-warehouse.ts';
import { judge, type Verdict } from '../helpers/question-set-judge.ts';
import { readSuite, runSuite, type AnsweredQuestion } from '../helpers/suite-run.ts';

const org = 'jaffle-org';
const SUITES = ['jaffle-shop', 'jaffle-paraphrases'].map((id) => readSuite(join(JAFFLE_DIR, 'evaluations', `${id}.yaml`)));
let t0: TestApp;
let conn: Awaited<ReturnType<DuckDBInstance['connect']>>;
const answered: (AnsweredQuestion & { verdict: Verdict })[] = [];

/** Numbers to cents, dates to the day, rows in any order: the answer's table and DuckDB's rows then compare as text. */
const cell = (v: unknown): string => {
  const n = Number(String(v));
  return Number.isFinite(n) && String(v).trim() !== '' ? n.toFixed(2) : String(v).slice(0, 10);
};
const sorted = (rows: unknown[][]) => JSON.stringify(rows.map((r) => r.map(cell).join('|')).sort());
const sameSorted = (a: unknown[][], b: unknown[][]) => sorted(a) === sorted(b);
/** The canonical suite's ids name metrics, not families. */
const familyOf = (suiteId: string, a: AnsweredQuestion) => (suiteId === 'jaffle-shop' ? 'canonical' : a.family);

test.before(async () => {
  const root = tempDir();
  const warehouse = await buildJaffleWarehouse();
  placeOrgFile(root, org, 'jaffle_shop.duckdb', warehouse);
  const instance = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
  conn = await instance.connect();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const created = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const read = (f: string) => JSON.parse(readFileSync(join(JAFFLE_DIR, f), 'utf8')) as unknown;
  const imported = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'jaffle', manifest: read('manifest.json'), catalog: read('catalog.json') } });
  if (imported.status !== 200) throw new Error(JSON.stringify(imported.body));
  const merged = await call(t0, 'POST', `/api/environments/${imported.body.environment_id as string}/merge`, { token: admin, body: { confirm: true } });
  if (merged.status !== 200) throw new Error(JSON.stringify(merged.body));
  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  for (const suite of SUITES) {
    for (const a of await runSuite(t0, admin, suite)) {
      const expected = a.question.expected_sql ? { sql: a.question.expected_sql } : { refuse: true as const };
      answered.push({ ...a, family: familyOf(suite.id, a), verdict: await judge(expected, a.answer, rows, sameSorted) });
    }
  }
});
test.after.always(() => t0?.stop());

test('the jaffle suites hold at least 40 questions and the runner answered each', (t) => {
  t.true(SUITES.reduce((n, s) => n + s.questions.length, 0) >= 40);
  t.is(answered.length, SUITES.reduce((n, s) => n + s.questions.length, 0));
});

test('no answer is wrong, and every question without expected_sql is refused', (t) => {
  for (const a of answered) {
    if (a.verdict === 'refused') t.log(`refused "${a.question.question}": ${a.answer.content.split(OFFLINE_UNSUPPORTED)[0]}`);
    t.not(a.verdict, 'wrong', `"${a.question.question}" (${a.question.id}) answered wrongly:\n${a.answer.content}\nSQL: ${a.answer.sql.map((s) => s.sql).join('; ')}`);
    if (!a.question.expected_sql) t.is(a.verdict, 'correct', `"${a.question.question}" must be refused`);
  }
});

test('every question with expected_sql is answered: a refusal there is a reading lost', (t) => {
  t.deepEqual(answered.filter((a) => a.question.expected_sql && a.verdict === 'refused').map((a) => a.question.question), []);
});

test('correct and refused per family', (t) => {
  const families = [...new Set(answered.map((a) => a.family)), undefined];
  for (const f of families) {
    const of = answered.filter((a) => !f || a.family === f);
    t.log(`${f ?? 'all'}: ${of.filter((a) => a.verdict === 'correct').length} correct, ${of.filter((a) => a.verdict === 'wrong').length} wrong, ${of.filter((a) => a.verdict === 'refused').length} refused`);
  }
  t.pass();
});

test('a misspelt table name that the first knowledge search missed is searched for by its reading, which the answer states', (t) => {
  // "ordres" first reads as "orders" from a metric of customers (count lifetime orders); searching
  // for "orders" finds the orders table, which the question is about.
  const a = answered.find((x) => x.question.id === 'typos.how-many-ordres-are-there')!;
  t.is(a.verdict, 'correct', a.answer.content);
  t.regex(a.answer.content, /^Reading 'ordres' as 'orders'\./);
});

test('a table named by its own name is that table, not another table\'s column of the same name', (t) => {
  // raw_orders has a `customer` column: "how many customers" still counts the customers table.
  for (const id of ['customers.total', 'typos.how-many-custmers-do-we-have']) {
    const a = answered.find((x) => x.question.id === id)!;
    t.is(a.verdict, 'correct', a.answer.content);
  }
});
