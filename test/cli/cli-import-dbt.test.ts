// `sextant import dbt` against a real gateway: dbt's target folder posted as a multipart upload into a
// new environment (or the one given), the summary printed, and the usage mistakes it explains.
import test from 'ava';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const FIXTURE = new URL('../../fixtures/dbt/bigquery_shop/', import.meta.url).pathname;
const WAREHOUSE = [
  'CREATE SCHEMA analytics',
  'CREATE TABLE analytics.orders (order_id INTEGER, customer_id INTEGER, status VARCHAR, amount DECIMAL(10,2))',
  'CREATE TABLE analytics.customers (customer_id INTEGER, name VARCHAR)',
  'CREATE TABLE analytics.raw_payments (payment_id INTEGER, order_id INTEGER, amount DECIMAL(10,2))',
];

let t0: TestApp;
let admin: string;
let cli: CliRunner;
let target: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, 'cli-dbt', 'wh.duckdb', (await duckdbFixture([], WAREHOUSE)).path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  const user = t0.user({ orgId: t0.org('cli-dbt'), role: 'modeler' });
  admin = t0.session(t0.user({ orgId: 'cli-dbt', role: 'admin' }));
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  cli = cliRunner(CLI_SOURCE, t0.url);
  target = join(cli.configDir, 'target');
  mkdirSync(target);
  for (const f of ['manifest.json', 'catalog.json']) copyFileSync(join(FIXTURE, f), join(target, f));
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(user, 'cli') }));
});
test.after.always(() => t0?.stop());

test.serial('import dbt reads ./target, picks the only connection, and prints the summary of a new environment', async (t) => {
  const res = await cli.run(['import', 'dbt']);
  t.is(res.code, 0, res.stderr);
  t.regex(res.stdout, /Created environment env_[0-9a-f]+ \(commit [0-9a-f]{12}\)/);
  t.regex(res.stdout, /tables\s+3 created/);
  t.regex(res.stdout, /model\.bq_shop\.stg_events: no relation staging\.stg_events on connection wh/);
  const env = /environment (env_[0-9a-f]+)/.exec(res.stdout)![1]!;
  t.is((await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/analytics.orders')}`, { token: admin, env })).status, 200);
  // Again into that environment (--env), as JSON: nothing changes.
  const again = await cli.run(['--json', '--env', env, 'import', 'dbt', '--target-dir', target, '--connection', 'wh']);
  t.is(again.code, 0, again.stderr);
  t.like(JSON.parse(again.stdout), { environment_id: env, environment_created: false, commit: null, counts: { tables: { unchanged: 3 } } });
});

test('import dbt without a manifest, or with an unknown connection, says what to do', async (t) => {
  const help = await cli.run(['import', 'dbt', '--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /--target-dir <dir>[\s\S]*--connection <id>/);
  const missing = await cli.run(['import', 'dbt', '--target-dir', join(cli.configDir, 'nowhere')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /No .*manifest\.json/);
  const unknown = await cli.run(['import', 'dbt', '--target-dir', target, '--connection', 'nope']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /HTTP 404/);
});
