// `sextant saved list|run`: the questions the caller sees, and a run that reads the warehouse again
// under the caller's row filters, as a table with the read time or as one JSON object.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let cli: CliRunner;
let questionId: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, 'cli-sq', 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  const org = t0.org('cli-sq');
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const modeler = t0.user({ orgId: org, role: 'modeler' });
  const analyst = t0.user({ orgId: org, role: 'user' });
  await setUserAttributes(t0.app.services.executor, org, analyst.id, { country: 'France' });
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
  await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  const saved = await call(t0, 'POST', '/api/saved_questions', {
    token: t0.session(modeler),
    body: { title: 'Orders', connection_id: 'wh', sql: 'SELECT order_id, country FROM orders ORDER BY order_id', visibility: 'organization' },
  });
  if (saved.status !== 201) throw new Error(JSON.stringify(saved.body));
  questionId = saved.body.id;
  cli = cliRunner(new URL('../../bin/sextant.js', import.meta.url).pathname, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(analyst, 'cli') }));
});
test.after.always(() => t0.stop());

test('saved list shows the organization\'s questions, as a table or JSON', async (t) => {
  const human = await cli.run(['saved', 'list']);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, new RegExp(`${questionId}\\s+Orders\\s+organization`));
  const json = await cli.run(['saved', 'list', '--json']);
  t.deepEqual((JSON.parse(json.stdout) as { questions: { id: string }[] }).questions.map((q) => q.id), [questionId]);
});

test('saved run reads the rows again under the caller\'s row filters, with the time they were read', async (t) => {
  const human = await cli.run(['saved', 'run', questionId]);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, /order_id\s+country/);
  t.regex(human.stdout, new RegExp(`Data read at ${new Date(t0.clock.now()).toISOString().replace(/\./g, '\\.')}`));
  const json = JSON.parse((await cli.run(['saved', 'run', questionId, '--json'])).stdout) as { rows: unknown[][]; read_at: string };
  t.deepEqual(json.rows, [[2, 'France'], [5, 'France']]);
  const missing = await cli.run(['saved', 'run', 'sq_missing']);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /not found/i);
});
