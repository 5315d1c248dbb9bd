// copy-store on the local PostgreSQL: the demo installation with users, tokens, chats, messages and
// answered questions arrives row for row; a target with rows is refused unless --truncate; values
// PostgreSQL cannot hold are reported; sextant-admin prints the per-table report.
import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/admin/main.ts';
import { findUserByEmail } from '../../src/auth/index.ts';
import { indexPendingMessages } from '../../src/chats/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { copyOrder, CopyRefused } from '../../src/store/copy-source.ts';
import { copyStore } from '../../src/store/copy-store.ts';
import { lockDataDir } from '../../src/store/data-dir-lock.ts';
import { listMigrations, migrate, openStore, SchemaNewerThanCode } from '../../src/store/index.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { principalOf, seedChat } from '../helpers/chats.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

let demo: TestApp;
let demoDir: string;

test.before(async () => {
  demo = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '200' });
  demoDir = demo.config.dataDir;
  const db = demo.app.services.store.sqlite!;
  const analyst = (await findUserByEmail(sqliteExecutor(db), 'analyst@demo.sextant.local'))!;
  const token = demo.token(analyst, 'api', DEMO_ORG_ID);
  for (const [chat, message] of [['copy-1', 'How many orders are there?'], ['copy-1', 'Total revenue by channel'], ['copy-2', 'Number of customers per country']]) {
    const res = await demo.fetch('/api/agentic_with_history', { method: 'POST', headers: { 'API-KEY': token, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: chat, message }) });
    if (res.status !== 200) throw new Error(`asking failed: ${res.status} ${await res.text()}`);
  }
  const member = demo.user({ orgId: DEMO_ORG_ID, role: 'modeler', email: 'Modeler.Mixed@Example.com' });
  demo.token(member, 'cli', DEMO_ORG_ID);
  demo.session(member, DEMO_ORG_ID);
  await seedChat(demo, principalOf(demo, member, DEMO_ORG_ID), 'seeded', [{ question: 'Umsätze nach Région?', answer: 'Voilà: 42' }]);
  await indexPendingMessages(demo.app.services.chats.store);
});
test.after.always(() => demo?.stop());

/** Every row of every copied table on both sides, sorted, as JSON: what "every row arrives" means. */
async function compareAllRows(t: import('ava').ExecutionContext, sqliteFile: string, url: string): Promise<Map<string, number>> {
  const lite = new Database(sqliteFile, { readonly: true });
  const pg = openTestPostgres(url);
  const counts = new Map<string, number>();
  try {
    for (const table of copyOrder(lite)) {
      const cols = table.columns.map((c) => `"${c}"`).join(', ');
      const a = (lite.prepare(`SELECT ${cols} FROM "${table.name}"`).raw().all() as unknown[][]).map((r) => JSON.stringify(r)).sort();
      const { rows } = await sql<Record<string, unknown>>`SELECT ${sql.raw(cols)} FROM ${sql.table(table.name)}`.execute(pg.db);
      const b = rows.map((r) => JSON.stringify(table.columns.map((c) => r[c]))).sort();
      t.deepEqual(b, a, table.name);
      counts.set(table.name, a.length);
    }
  } finally {
    lite.close();
    await pg.close();
  }
  return counts;
}

test('copy-store moves the demo installation onto PostgreSQL: every row of every table, verified, sequences past the copied ids', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const report = await copyStore({ from: demoDir, to: url, batchRows: 7 });
  t.true(report.ok);
  t.true(report.tables.every((r) => r.ok && r.sourceRows === r.targetRows && r.alteredValues === 0));
  const counts = await compareAllRows(t, join(demoDir, 'sextant.db'), url);
  for (const table of ['organizations', 'users', 'memberships', 'api_tokens', 'sessions', 'chats', 'chat_messages', 'chat_messages_fts', 'agent_runs', 'agent_events', 'agent_usage', 'query_log', 'connections']) {
    t.true(counts.get(table)! > 0, `${table} has rows to copy`);
  }
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  const maxLite = new Database(join(demoDir, 'sextant.db'), { readonly: true });
  const lastEvent = maxLite.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'agent_events'").pluck().get() as number;
  maxLite.close();
  const next = await sql<{ id: number }>`INSERT INTO agent_events (run_id, type, data, created_at) SELECT id, 'x', '{}', 0 FROM agent_runs LIMIT 1 RETURNING id`.execute(pg.db);
  t.is(next.rows[0]!.id, lastEvent + 1, 'the identity continues after SQLite AUTOINCREMENT mark');
  const search = await sql<{ n: number }>`SELECT count(*)::int AS n FROM chat_messages_fts WHERE tsv @@ websearch_to_tsquery('sextant_fts', 'umsatze region')`.execute(pg.db);
  t.is(search.rows[0]!.n, 1, 'the copied index answers a search, diacritics folded');
});

test('a target that already holds rows is refused, and --truncate replaces them', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  t.true((await copyStore({ from: demoDir, to: url })).ok);
  const err = await t.throwsAsync(copyStore({ from: demoDir, to: url }), { instanceOf: CopyRefused });
  t.is(err!.code, 'COPY_TARGET_NOT_EMPTY');
  t.regex(err!.message, /--truncate/);
  const again = await copyStore({ from: demoDir, to: url, truncate: true });
  t.true(again.ok);
  await compareAllRows(t, join(demoDir, 'sextant.db'), url);
});

test('hostile values: quotes, unicode and long text arrive verbatim; NUL characters become U+FFFD and are counted', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const file = join(mkdtempSync(join(tmpdir(), 'sextant-copy-')), 'sextant.db');
  const store = openStore({ file });
  const quotes = `O'Brien "the" \\ back; DROP TABLE users; -- $1 $$ %s`;
  const unicode = 'Zoë 🚀 שלום مرحبا 𝔘𝔫𝔦 e\u0301 \u200b\ufeff';
  const long = 'x'.repeat(3_000_000);
  store.db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run('o1', quotes, 1);
  store.db.prepare('INSERT INTO users (id, email, name, slack_title, created_at) VALUES (?, ?, ?, ?, ?)').run('u1', 'a@b.c', 'nul\u0000inside', unicode, 2 ** 53 - 1);
  store.db.prepare('INSERT INTO outbox (id, to_address, subject, text_body, created_at) VALUES (?, ?, ?, ?, ?)').run('m1', 'a@b.c', unicode, long, 1);
  // A message still in the search queue (no indexer runs here).
  store.db.prepare("INSERT INTO chats (org_id, chat_id, user_id, created_at, updated_at) VALUES ('o1', 'c1', 'u1', 1, 1)").run();
  store.db.prepare("INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES (1, 'm', 'user', ?, 0, 1)").run(unicode);
  store.close();
  const report = await copyStore({ from: file, to: url });
  t.true(report.ok);
  t.is(report.tables.find((r) => r.table === 'users')!.alteredValues, 1);
  t.true(report.tables.filter((r) => r.table !== 'users').every((r) => r.alteredValues === 0));
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  const org = await sql<{ name: string }>`SELECT name FROM organizations`.execute(pg.db);
  t.is(org.rows[0]!.name, quotes);
  const user = await sql<{ name: string; slack_title: string; created_at: number }>`SELECT name, slack_title, created_at FROM users`.execute(pg.db);
  t.deepEqual(user.rows[0], { name: 'nul\ufffdinside', slack_title: unicode, created_at: 2 ** 53 - 1 });
  const mail = await sql<{ text_body: string; subject: string }>`SELECT text_body, subject FROM outbox`.execute(pg.db);
  t.is(mail.rows[0]!.text_body, long);
  t.is(mail.rows[0]!.subject, unicode);
  // The queue arrives as it was: the chat triggers were off during the copy, so nothing was queued or indexed twice.
  t.deepEqual((await sql`SELECT message_id FROM chat_messages_fts_pending`.execute(pg.db)).rows, [{ message_id: 1 }]);
  t.deepEqual((await sql`SELECT rowid FROM chat_messages_fts`.execute(pg.db)).rows, []);
  const triggers = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'chat_messages'::regclass AND NOT tgisinternal AND tgenabled = 'O'`.execute(pg.db);
  t.is(triggers.rows[0]!.n, 3, 'and are on again afterwards');
});

test('sextant-admin migrate and copy-store print what they did, mask the password, and exit 1 on a refused copy', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  process.env['SEXTANT_DATA_DIR'] = mkdtempSync(join(tmpdir(), 'sextant-admin-'));
  const withPassword = url.replace('postgres@', 'postgres:hunter2@');
  const lines: string[] = [];
  const output = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
  t.is(await main(['migrate'], output), 0, 'SQLite in SEXTANT_DATA_DIR');
  t.regex(lines.at(-1)!, /^SQLite .*sextant\.db: applied 0001, 0010/);
  t.is(await main(['migrate'], output), 0);
  t.regex(lines.at(-1)!, /applied none \(the schema is current\)/);
  t.is(await main(['migrate', '--database-url', withPassword], output), 0);
  t.regex(lines.join('\n'), /applied 0001, 0010/);
  t.is(await main(['copy-store', '--from', demoDir, '--to', withPassword], output), 0);
  t.regex(lines.join('\n'), /chat_messages\s+\d+\s+\d+\s+match/);
  t.regex(lines.join('\n'), /All \d+ tables copied and verified\./);
  t.is(await main(['copy-store', '--from', demoDir, '--to', withPassword], output), 1);
  t.regex(lines.at(-1)!, /already holds rows/);
  t.notRegex(lines.join('\n'), /hunter2/);
  t.is(await main(['copy-store', '--to', 'mysql://nope'], output), 1);
  // A server serving the source folder holds its lock: the copy would miss what it writes afterwards.
  const lock = lockDataDir(demoDir, process.ppid); // held in the name of another live process
  t.teardown(() => lock.release());
  t.is(await main(['copy-store', '--from', demoDir, '--to', withPassword, '--truncate'], output), 1);
  t.regex(lines.at(-1)!, /Another Sextant process \(pid \d+\) serves the data folder/);
  t.is(await main(['no-such-command'], output), 2);
});

test('a table that does not read back as written fails its checksum, and the whole copy is rolled back', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db);
  // char(n) pads what it stores: the rows arrive, but not as they were.
  await sql`ALTER TABLE organizations ALTER COLUMN name TYPE char(60)`.execute(pg.db);
  const report = await copyStore({ from: demoDir, to: url });
  t.false(report.ok);
  const bad = report.tables.filter((r) => !r.ok);
  t.deepEqual(bad.map((r) => r.table), ['organizations']);
  t.is(bad[0]!.sourceRows, bad[0]!.targetRows);
  t.not(bad[0]!.sourceChecksum, bad[0]!.targetChecksum);
  const left = await sql<{ n: number }>`SELECT (SELECT count(*) FROM organizations) + (SELECT count(*) FROM chat_messages) AS n`.execute(pg.db);
  t.is(Number(left.rows[0]!.n), 0, 'nothing was kept');
});

test('a source behind this version (migrations missing) or ahead of it is refused before anything is copied', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const file = join(mkdtempSync(join(tmpdir(), 'sextant-copy-')), 'sextant.db');
  const db = new Database(file);
  migrate(db, listMigrations().slice(0, 5));
  db.close();
  const behind = await t.throwsAsync(copyStore({ from: file, to: url }), { instanceOf: CopyRefused });
  t.is(behind!.code, 'COPY_SOURCE_NOT_MIGRATED');
  const again = new Database(file);
  migrate(again);
  again.prepare("INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')").run();
  again.close();
  await t.throwsAsync(copyStore({ from: file, to: url }), { instanceOf: SchemaNewerThanCode });
});
