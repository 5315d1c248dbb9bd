// `sextant saved list|run|export`: the questions the caller sees, a run that reads the warehouse again
// under the caller's row filters (as a table with the read time or as one JSON object), and an export
// of every row as a file through the server's governed export.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner, CLI_SOURCE } from '../helpers/cli.ts';
import { filenameOf } from '../../src/cli/commands/saved-export.ts';
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
  cli = cliRunner(CLI_SOURCE, t0.url);
  writeFileSync(join(cli.configDir, 'config.json'), JSON.stringify({ server: t0.url, token: t0.token(analyst, 'cli') }));
});
test.after.always(() => t0.stop());

/**
 * The partial files of these exports left in the CLI's folder. Only a test's own: the tests of this
 * file run at once, so another test's export may be writing its partial file meanwhile.
 */
const partialsOf = (files: string[]) => readdirSync(cli.configDir).filter((f) => files.some((file) => f === `.${file}.part`));

test('saved list shows the organization\'s questions, as a table or JSON', async (t) => {
  const human = await cli.run(['saved', 'list']);
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, new RegExp(`${questionId}\\s+Orders\\s+organization`));
  const json = await cli.run(['saved', 'list', '--json']);
  t.deepEqual((JSON.parse(json.stdout) as { questions: { id: string }[] }).questions.map((q) => q.id), [questionId]);
  const searched = await cli.run(['saved', 'list', 'ORD', '--json']);
  t.deepEqual((JSON.parse(searched.stdout) as { questions: { id: string }[] }).questions.map((q) => q.id), [questionId], 'its title holds the words, in another case');
  const none = await cli.run(['saved', 'list', 'no', 'such', 'title']);
  t.is(none.code, 0, none.stderr);
  t.is(none.stdout.trim(), 'No saved question matches "no such title".');
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

test('saved export writes every row as CSV under the caller\'s row filters, named by the server, or to --output', async (t) => {
  const named = await cli.run(['saved', 'export', questionId]);
  t.is(named.code, 0, named.stderr);
  const day = new Date(t0.clock.now()).toISOString().slice(0, 10);
  t.is(named.stdout.trim(), `Wrote Orders ${day}.csv`);
  t.is(readFileSync(join(cli.configDir, `Orders ${day}.csv`), 'utf8'), 'order_id,country\r\n2,France\r\n5,France\r\n');
  const out = join(cli.configDir, 'orders.xlsx');
  const xlsx = await cli.run(['saved', 'export', questionId, '--format', 'xlsx', '--output', out, '--json']);
  t.is(xlsx.code, 0, xlsx.stderr);
  t.deepEqual(JSON.parse(xlsx.stdout), { id: questionId, format: 'xlsx', file: out });
  t.is(readFileSync(out).subarray(0, 2).toString(), 'PK');
  const piped = await cli.run(['saved', 'export', questionId, '--output', '-']);
  t.is(piped.stdout, 'order_id,country\r\n2,France\r\n5,France\r\n');
  t.deepEqual(partialsOf([`Orders ${day}.csv`, 'orders.xlsx']), [], 'no partial file left');
});

test('saved export refuses a bad format and a question the caller cannot read, writing nothing', async (t) => {
  const bad = await cli.run(['saved', 'export', questionId, '--format', 'pdf']);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /--format must be csv or xlsx/);
  const missing = await cli.run(['saved', 'export', 'sq_missing', '--output', 'missing.csv']);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /not found/i);
  t.false(existsSync(join(cli.configDir, 'missing.csv')));
});

test('the file name a server gives is a name only: no folder, no way out of the current one', (t) => {
  t.is(filenameOf(`attachment; filename="a.csv"; filename*=UTF-8''Ums%C3%A4tze%202026.csv`, 'x.csv'), 'Umsätze 2026.csv');
  t.is(filenameOf('attachment; filename="../../etc/passwd"', 'x.csv'), 'passwd');
  t.is(filenameOf(`attachment; filename*=UTF-8''..%2F..%2Fevil.csv`, 'x.csv'), 'evil.csv');
  t.is(filenameOf(`attachment; filename*=UTF-8''%E0%A4%A`, 'x.csv'), 'x.csv');
  t.is(filenameOf(null, 'sq_1.csv'), 'sq_1.csv');
  t.is(filenameOf('attachment; filename=".."', 'x.csv'), 'x.csv');
});

test('an export cut before its end leaves no file, not even a partial one, and says so', async (t) => {
  // A server that sends the first rows, then drops the connection without the end of the response.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="cut.csv"' });
    res.write('order_id,country\r\n2,France\r\n', () => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cut = await cli.run(['saved', 'export', questionId, '--server', url]);
  t.is(cut.code, 2);
  t.regex(cut.stderr, /cut before it ended/);
  t.false(existsSync(join(cli.configDir, 'cut.csv')));
  t.deepEqual(partialsOf(['cut.csv']), []);
});
