// The offline model on a warehouse it was not written for: the jaffle shop, imported from its dbt
// artifacts and merged (as in test/imports/dbt/jaffle-shop.test.ts), asked the paraphrases of
// test/helpers/jaffle-paraphrases.ts. No answer may be wrong, out-of-family ones are refused, and
// the run prints correct / refused per family. Expected rows come from SQL over the same warehouse.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/index.ts';
import { placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { JAFFLE_PARAPHRASES } from '../helpers/jaffle-paraphrases.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../helpers/jaffle-warehouse.ts';

const org = 'jaffle-org';
let t0: TestApp;
let admin: string;
let warehouse: string;
const verdicts = new Map<string, 'correct' | 'wrong' | 'refused'>();

/** Numbers to cents, dates to the day: the answer's table and DuckDB's rows then compare as text. */
const cell = (v: unknown): string => {
  const n = Number(String(v));
  return Number.isFinite(n) && String(v).trim() !== '' ? n.toFixed(2) : String(v).slice(0, 10);
};
const sorted = (rows: unknown[][]) => rows.map((r) => r.map(cell).join('|')).sort();

async function sqlRows(sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return (await (await conn.run(sql)).getRows()) as unknown[][];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

test.before(async () => {
  const root = tempDir();
  warehouse = await buildJaffleWarehouse();
  placeOrgFile(root, org, 'jaffle_shop.duckdb', warehouse);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const created = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const read = (f: string) => JSON.parse(readFileSync(join(JAFFLE_DIR, f), 'utf8')) as unknown;
  const imported = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'jaffle', manifest: read('manifest.json'), catalog: read('catalog.json') } });
  if (imported.status !== 200) throw new Error(JSON.stringify(imported.body));
  const merged = await call(t0, 'POST', `/api/environments/${imported.body.environment_id as string}/merge`, { token: admin, body: { confirm: true } });
  if (merged.status !== 200) throw new Error(JSON.stringify(merged.body));
});
test.after.always(() => t0?.stop());

for (const [i, [family, question, sql]] of JAFFLE_PARAPHRASES.entries()) {
  test.serial(`jaffle paraphrase (${family}): "${question}"`, async (t) => {
    const res = await call(t0, 'POST', '/api/agentic', { token: admin, body: { chat_id: `jaffle-${i}`, messages: [{ role: 'user', content: question }] } });
    t.is(res.status, 200, JSON.stringify(res.body));
    const content = res.body.content as string;
    const table = (res.body.tables as { rows: unknown[][] }[])[0];
    const refused = !table && content.includes(OFFLINE_UNSUPPORTED);
    const verdict = refused ? (sql === null ? 'correct' : 'refused') : sql === null ? 'wrong' : JSON.stringify(sorted(table?.rows ?? [])) === JSON.stringify(sorted(await sqlRows(sql))) ? 'correct' : 'wrong';
    verdicts.set(question, verdict);
    if (verdict === 'refused') t.log(`refused: ${content.split(OFFLINE_UNSUPPORTED)[0]}`);
    t.not(verdict, 'wrong', `"${question}" answered wrongly:\n${content}`);
  });
}

test.serial('the jaffle paraphrases: no wrong answer, correct and refused printed per family', (t) => {
  const families = [...new Set(JAFFLE_PARAPHRASES.map(([f]) => f)), undefined];
  for (const f of families) {
    const of = JAFFLE_PARAPHRASES.filter(([x]) => !f || x === f).map(([, q]) => verdicts.get(q));
    t.log(`${f ?? 'all'}: ${of.filter((v) => v === 'correct').length} correct, ${of.filter((v) => v === 'wrong').length} wrong, ${of.filter((v) => v === 'refused').length} refused`);
  }
  t.is(verdicts.size, JAFFLE_PARAPHRASES.length, 'every question was asked');
  t.false([...verdicts.values()].includes('wrong'));
});
