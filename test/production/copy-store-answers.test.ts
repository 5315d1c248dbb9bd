// The move to PostgreSQL as an operator does it (issue 27: "tested on the demo data: every row arrives,
// and the service answers the same afterwards"): the demo served from SQLite answers questions, the
// server stops, `sextant-admin copy-store` moves the service database, and the server started on
// PostgreSQL with the same data folder reads the same (ids, order, content), accepts the credentials
// issued before, and answers the same questions the same way. test/store/copy-store.test.ts checks
// the rows themselves.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';
import { freshPgDatabase, SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { collectEvents } from '../helpers/sse.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const ENV = {
  SEXTANT_DEMO_WAREHOUSE_ORDERS: '200',
  SEXTANT_JWT_SECRET: 'move-jwt-secret-move-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'move-cookie-key',
};
/** [chat, question]: a follow-up (read from the chat's history) and questions that do not depend on today's date. */
const QUESTIONS: [string, string][] = [
  ['move-1', 'How many orders did we get in 2023?'],
  ['move-1', 'What about 2024?'],
  ['move-2', 'Total revenue by channel'],
  ['move-2', 'Number of customers per country'],
];
const STREAMED: [string, string] = ['move-3', 'How many orders are there?'];

interface Credentials {
  analyst: Record<string, string>;
  apiToken: Record<string, string>;
  admin: Record<string, string>;
}

async function json(base: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(base + path, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function signIn(base: string, email: string, password: string): Promise<Record<string, string>> {
  const { access_token } = await json(base, '/api/auth/token', {}, { username: email, password });
  return { authorization: `Bearer ${access_token as string}` };
}

async function credentials(base: string): Promise<Credentials> {
  const analyst = await signIn(base, 'analyst@demo.sextant.local', 'demo-analyst-password');
  const admin = await signIn(base, 'admin@demo.sextant.local', 'demo-admin-password');
  const { token } = await json(base, '/api/auth/user/tokens', analyst, { name: 'before the move' });
  return { analyst, admin, apiToken: { 'api-key': token as string } };
}

/** What an answer says, without what each run names anew (its ids, its tables' download keys): the part that must not change. */
function answerOf(body: Record<string, unknown>) {
  const tables = (body['tables'] as Record<string, unknown>[] | undefined)?.map(({ df_key: _key, ...table }) => table);
  return { status: body['status'], content: body['content'], tables, sql: body['sql'] };
}

/** Asks QUESTIONS (chat ids prefixed) and the streamed one; returns the answers and the streamed events. */
async function ask(base: string, c: Credentials, prefix: string) {
  const answers = [];
  for (const [chat, message] of QUESTIONS) answers.push(answerOf(await json(base, '/api/agentic_with_history', c.apiToken, { chat_id: prefix + chat, message })));
  const res = await fetch(`${base}/api/agentic/stream`, { method: 'POST', headers: { ...c.analyst, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: prefix + STREAMED[0], message: STREAMED[1] }) });
  const events = await collectEvents(res);
  return { answers, streamed: events.map((e) => e.event), completed: answerOf(events.at(-1)!.data!) };
}

/** Every read the test compares, in a fixed order, as each credential sees it. */
async function readAll(base: string, c: Credentials): Promise<Record<string, unknown>> {
  const reads: Record<string, unknown> = {};
  const get = async (label: string, path: string, headers: Record<string, string>) => void (reads[label] = await json(base, path, headers));
  await get('me by API token', '/api/auth/me', c.apiToken);
  await get('me by session', '/api/auth/me', c.analyst);
  await get('chat history', '/api/chat_history?limit=2', c.analyst);
  const cursor = (reads['chat history'] as { next_cursor: string }).next_cursor;
  await get('chat history, page 2', `/api/chat_history?limit=2&cursor=${encodeURIComponent(cursor)}`, c.analyst);
  for (const chat of ['move-1', 'move-2', 'move-3']) await get(`chat ${chat}`, `/api/c2/${chat}?include_all=true`, c.analyst);
  await get('search', '/api/search_chats?q=revenue', c.analyst);
  await get('members', '/api/admin/members', c.admin);
  await get('tables', '/api/knowledge/tables', c.admin);
  await get('knowledge history', '/api/knowledge/model/history', c.admin);
  const replay = await fetch(`${base}/api/agentic/subscribe/${STREAMED[0]}`, { headers: c.analyst });
  reads['events of the streamed run'] = await collectEvents(replay);
  return reads;
}

async function serve(t: ExecutionContext, env: Record<string, string>): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(nodeEntry('src/main.ts'), { ...ENV, ...env });
  t.teardown(() => void gateway.proc.kill('SIGKILL'));
  return gateway;
}

async function stop(gateway: GatewayProcess): Promise<void> {
  gateway.proc.kill('SIGTERM');
  await gateway.exited;
}

/** `sextant-admin copy-store` in a process of its own; resolves with its exit code and output. */
function copyStoreCommand(dataDir: string, url: string): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, [...nodeEntry('src/admin/run.ts'), 'copy-store', '--from', dataDir, '--to', url], { cwd: ROOT, env: { ...process.env, SEXTANT_DATA_DIR: dataDir } });
  let output = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((resolve) => proc.once('exit', (code) => resolve({ code, output })));
}

test('the demo moved from SQLite onto PostgreSQL with copy-store reads and answers the same, and the old credentials still work', async (t) => {
  t.timeout(180_000);
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-move-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  const onSqlite = await serve(t, { SEXTANT_DATA_DIR: dataDir });
  const c = await credentials(onSqlite.url);
  const asked = await ask(onSqlite.url, c, '');
  const before = await readAll(onSqlite.url, c);
  await stop(onSqlite);
  t.is(asked.answers.length, QUESTIONS.length);
  t.true(asked.answers.every((a) => a.status === 'completed' && (a.tables?.length ?? 0) > 0), 'every question was answered with a table');
  t.is((before['chat history, page 2'] as { chats: unknown[] }).chats.length, 1, 'three chats, two per page');
  t.true((before['members'] as { members: unknown[] }).members.length >= 3, 'the demo members');
  t.is((before['events of the streamed run'] as { event: string }[]).at(-1)!.event, 'completed');

  const copy = await copyStoreCommand(dataDir, url);
  t.is(copy.code, 0, copy.output);
  t.regex(copy.output, /All \d+ tables copied and verified\./);
  // Nothing may be read from the old file any more: a server that still did would start an empty
  // demo there, and every read below would differ.
  for (const suffix of ['', '-wal', '-shm']) renameIfPresent(join(dataDir, `sextant.db${suffix}`));

  const onPostgres = await serve(t, { SEXTANT_DATA_DIR: dataDir, SEXTANT_DATABASE_URL: url });
  const after = await readAll(onPostgres.url, c);
  for (const key of Object.keys(before)) t.deepEqual(after[key], before[key], key);
  const again = await ask(onPostgres.url, c, 'again-');
  t.deepEqual(again, asked, 'the same questions get the same answers');
  await stop(onPostgres);
});

function renameIfPresent(file: string): void {
  try {
    renameSync(file, `${file}.moved`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
