// The real CLI process against a gateway seeded with the demo organization (small warehouse).
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findUserByEmail, principalFor } from '../../src/auth/index.ts';
import { startQuickFixEnvironment } from '../../src/knowledge/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { cliRunner, type CliRunner } from '../helpers/cli.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let bundle: string;
let analyst: string;
let admin: string;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '2000' });
  const res = await t0.fetch('/api/cli/download/node');
  bundle = join(t0.config.dataDir, 'sextant.mjs');
  writeFileSync(bundle, Buffer.from(await res.arrayBuffer()));
  const db = t0.app.services.store.sqlite!;
  analyst = t0.token((await findUserByEmail(sqliteExecutor(db), 'analyst@demo.sextant.local'))!, 'cli', DEMO_ORG_ID);
  admin = t0.token((await findUserByEmail(sqliteExecutor(db), 'admin@demo.sextant.local'))!, 'cli', DEMO_ORG_ID);
});
test.after.always(() => t0.stop());

const signedIn = (token: string): CliRunner => {
  const runner = cliRunner(bundle, t0.url);
  writeFileSync(join(runner.configDir, 'config.json'), JSON.stringify({ server: t0.url, token }));
  return runner;
};

test('ask --json answers with the offline model and writes the data and the chart to files', async (t) => {
  const runner = signedIn(analyst);
  const r = await runner.run(['ask', 'total revenue by country', '--json']);
  t.is(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { chat_id: string; answer: string; sql: string[]; tables: { columns: string[]; file: string }[]; charts: { file: string }[]; credits: number };
  t.regex(answer.answer, /Germany/);
  t.regex(answer.sql[0] ?? '', /GROUP BY/i);
  t.deepEqual(answer.tables[0]?.columns.length, 2);
  const csv = readFileSync(answer.tables[0]!.file, 'utf8');
  t.regex(csv, /^country,/);
  t.is(csv.trim().split(/\r?\n/).length, 9, 'a header and eight countries');
  t.true(existsSync(answer.charts[0]!.file));
  t.true(answer.tables[0]!.file.startsWith(join(runner.configDir, 'sextant-output', answer.chat_id)));
  t.true(answer.credits > 0);
});

test('a bare question runs ask and prints the answer, the SQL and where the data went', async (t) => {
  const r = await signedIn(analyst).run(['how many orders were placed in 2024?']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /Number of orders in 2024/);
  t.regex(r.stdout, /SQL:\n\s+SELECT/);
  t.regex(r.stdout, /Full data: .*data-1\.csv/);
  t.regex(r.stdout, /continue with --chat/);
});

test('--chat continues a chat', async (t) => {
  const runner = signedIn(analyst);
  const first = JSON.parse((await runner.run(['ask', 'total revenue by channel', '--json'])).stdout) as { chat_id: string };
  const second = await runner.run(['ask', 'average order value by channel', '--chat', first.chat_id, '--json']);
  t.is(second.code, 0, second.stderr);
  t.is((JSON.parse(second.stdout) as { chat_id: string }).chat_id, first.chat_id);
  const show = await runner.run(['chats', 'show', first.chat_id]);
  t.regex(show.stdout, /average order value by channel/);
});

test('chats list, search and catalog answer', async (t) => {
  const runner = signedIn(analyst);
  await runner.run(['ask', 'how many customers are there?']);
  t.regex((await runner.run(['chats', 'list'])).stdout, /chat_id/);
  t.regex((await runner.run(['chats', 'search', 'customers'])).stdout, /customers/i);
  const catalog = await runner.run(['catalog', '--json']);
  t.is(catalog.code, 0, catalog.stderr);
  t.regex(catalog.stdout, /demo_warehouse/);
});

test('the plain-text catalog prints the documented tables with their metrics', async (t) => {
  const r = await signedIn(analyst).run(['catalog']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /Tables \(most used first\):/);
  for (const table of ['main.orders', 'main.order_items', 'main.customers', 'main.products']) t.regex(r.stdout, new RegExp(table.replace('.', '\\.')));
  t.regex(r.stdout, /main\.orders\s+\d+\s+revenue, order_count, /);
});

test('env list says which environments are throwaway', async (t) => {
  const db = t0.app.services.store.sqlite!;
  const principal = (await principalFor(sqliteExecutor(db), (await findUserByEmail(sqliteExecutor(db), 'admin@demo.sextant.local'))!, DEMO_ORG_ID, 'session', []))!;
  const quick = await startQuickFixEnvironment(t0.app.services.knowledge, principal);
  const runner = signedIn(admin);
  await runner.run(['env', 'create', 'Lasting one']);
  const r = await runner.run(['env', 'list']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /kind/);
  t.regex(r.stdout, new RegExp(`${quick.id}\\s+.*throwaway\\s+\\d{4}-`));
  t.regex(r.stdout, /Lasting one\s+#[0-9a-f]+\s+lasting/);
});

test('every env subcommand works against the server, and the active environment goes in the header', async (t) => {
  const runner = signedIn(admin);
  const created = await runner.run(['env', 'create', 'Docs fix', '--color', '#ff8800', '--json']);
  t.is(created.code, 0, created.stderr);
  const env = JSON.parse(created.stdout) as { id: string };
  t.regex((await runner.run(['env', 'list'])).stdout, /Docs fix/);
  t.is((await runner.run(['env', 'use', env.id])).code, 0);
  t.deepEqual(JSON.parse((await runner.run(['env', 'current', '--json'])).stdout), { environment: env.id, source: 'saved' });
  t.is((await runner.run(['env', 'target', 'set', 'demo_warehouse', 'main'])).code, 0);
  const synced = await runner.run(['env', 'sync-target']);
  t.is(synced.code, 0, synced.stderr);
  const note = await call(t0, 'POST', '/api/knowledge/notes', { token: admin, env: env.id, body: { title: 'Fiscal year', body: 'Our fiscal year starts in April.', tags: [] } });
  t.is(note.status, 201);
  const diff = await runner.run(['env', 'diff']);
  t.regex(diff.stdout, /added\s+notes\/fiscal-year\.yaml/);
  const conflicts = await runner.run(['env', 'conflicts']);
  t.is(conflicts.code, 0, conflicts.stderr);
  t.regex(conflicts.stdout, /No conflicts/);
  t.is((await runner.run(['env', 'merge'])).code, 2, 'merge needs --confirm');
  const merged = await runner.run(['env', 'merge', '--confirm', '--delete-after']);
  t.is(merged.code, 0, merged.stderr);
  t.deepEqual(JSON.parse((await runner.run(['env', 'current', '--json'])).stdout), { environment: null, source: 'production' });
  const notes = await call(t0, 'GET', '/api/knowledge/notes', { token: admin });
  t.true((notes.body.items as { id: string }[]).some((i) => i.id === 'fiscal-year'));
});

test('env delete needs --confirm, and --env overrides the saved environment for one command', async (t) => {
  const runner = signedIn(admin);
  const env = JSON.parse((await runner.run(['env', 'create', 'Scratch', '--json'])).stdout) as { id: string };
  t.is((await runner.run(['env', 'delete', env.id])).code, 2);
  const other = JSON.parse((await runner.run(['env', 'create', 'Other', '--json'])).stdout) as { id: string };
  await runner.run(['env', 'use', other.id]);
  const diff = await runner.run(['env', 'diff', '--env', env.id, '--json']);
  t.is(diff.code, 0, diff.stderr);
  t.is((await runner.run(['env', 'delete', env.id, '--confirm'])).code, 0);
  t.regex((await runner.run(['env', 'diff', '--env', env.id])).stderr, /404/);
});

test('a regular user sees environments refused with a hint', async (t) => {
  const r = await signedIn(analyst).run(['env', 'create', 'Nope']);
  t.is(r.code, 2);
  t.regex(r.stderr, /403/);
});
