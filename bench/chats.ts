// Chat history and search at scale: one user with 100,000 chats and 1,000,000 messages.
// Targets (interface part 8 pages, this machine): p99 < 20 ms per chat_history page, < 50 ms per
// search_chats query. Measured in-process on the domain functions (the SQL is the cost) and through
// the HTTP gateway on loopback.
//
// Seeding a million messages through the service's drain takes minutes. BENCH_CHATS_SEEDED=<file> keeps
// the database as the bulk load left it (its last transaction still queued for the index) in that file
// and, when the file exists, starts from a copy of it instead of seeding.
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { sqliteExecutor } from '../src/store/index.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.ts';
import { createOrganization, createUser, findUserByEmail, principalFor, setMembership, startSession } from '../src/auth/index.ts';
import { chatHistory, searchChats, type ChatHistoryResponse } from '../src/chats/index.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { listen } from '../src/server.ts';

const CHATS = Number(process.env['BENCH_CHATS'] ?? 100_000);
const SEEDED = process.env['BENCH_CHATS_SEEDED'];
const MESSAGES_PER_CHAT = 10;
const SEED_CHATS_PER_TRANSACTION = 100;
const WORDS = ['revenue', 'orders', 'customers', 'country', 'month', 'growth', 'margin', 'product', 'category', 'churn', 'segment', 'channel', 'web', 'store', 'mobile', 'returned', 'shipped', 'average', 'total', 'discount', 'quarter', 'year', 'trend', 'Germany', 'Japan', 'Brazil', 'Electronics', 'Toys', 'Books', 'Sports'];
const FILLER = ['the', 'of', 'by', 'for', 'and', 'in', 'was', 'is', 'show', 'me', 'what', 'how', 'many', 'per', 'top', 'last'];

/** Seeded PRNG (mulberry32) so every run builds the same data. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function report(name: string, samples: number[], targetMs: number): void {
  const s = [...samples].sort((a, b) => a - b);
  const p99 = percentile(s, 99);
  console.log(`${name.padEnd(44)} n=${s.length} p50=${percentile(s, 50).toFixed(2)}ms p99=${p99.toFixed(2)}ms max=${s[s.length - 1]!.toFixed(2)}ms target p99<${targetMs}ms ${p99 < targetMs ? 'OK' : 'MISSED'}`);
}

async function time<T>(fn: () => T | Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

/** Wall and CPU time (this process's, user and system) of a call: on a shared machine the wall time is mostly waiting for a core. */
async function timeCpu(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const before = process.cpuUsage();
  const [wall] = await time(fn);
  const used = process.cpuUsage(before);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** Builds the data set, then measures history pages and searches. */
export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_PORT: '0', SEXTANT_SEED_DEMO: 'false', SEXTANT_LOG_LEVEL: 'silent', SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789', SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'bench' });
  const reuse = SEEDED !== undefined && existsSync(SEEDED);
  if (reuse) copyFileSync(SEEDED, join(dataDir, 'sextant.db'));
  const open = () => createApp(config, { log: createLogger('silent') });
  let app = await open();
  try {
    const bootstrap = sqliteExecutor(app.services.store.sqlite!);
    const user = reuse ? await seededUser(app) : await seedUser(app);
    const principal = (await principalFor(bootstrap, user, 'bench', 'session', []))!;

    if (reuse) console.log(`seeded database copied from ${SEEDED}`);
    else {
      const [buildMs, indexWaitMs] = await time(() => seed(app, user.id));
      console.log(`seeded ${CHATS} chats, ${CHATS * MESSAGES_PER_CHAT} messages in ${(buildMs / 1000).toFixed(1)} s (${(indexWaitMs / 1000).toFixed(1)} s of it indexing between transactions)`);
      // Synchronously, so that the drain does not index the last transaction's messages meanwhile.
      if (SEEDED !== undefined) writeFileSync(SEEDED, app.services.store.sqlite!.serialize());
    }
    // Percentiles on a shared machine depend on what else runs: print the load next to them.
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // The goal (issue 38): no search over 100 ms right after a bulk load or a restart. The search
    // indexes what the background drain has not reached yet (the last transaction's messages).
    const queued = (app.services.store.sqlite!.prepare('SELECT count(*) AS n FROM chat_messages_fts_pending').get() as { n: number }).n;
    const afterLoad = await timeCpu(() => searchChats(app.services.chats, principal, { q: 'revenue' }));
    console.log(`first search right after the bulk load (${queued} still queued): ${afterLoad.wall.toFixed(1)} ms (cpu ${afterLoad.cpu.toFixed(1)} ms), goal < 100 ms ${afterLoad.wall < 100 ? 'OK' : 'MISSED'}`);
    await app.close();
    app = await open();
    const afterRestart = await timeCpu(() => searchChats(app.services.chats, principal, { q: 'revenue' }));
    console.log(`first search right after a restart: ${afterRestart.wall.toFixed(1)} ms (cpu ${afterRestart.cpu.toFixed(1)} ms), goal < 100 ms ${afterRestart.wall < 100 ? 'OK' : 'MISSED'}`);
    const db = app.services.store.sqlite!;
    db.pragma('optimize');

    const deps = app.services.chats;
    const cursorKey = config.secrets.jwtKey;
    // History: the first page, then walk 300 pages deep with the cursor (limit 40, the default).
    const first: number[] = [];
    for (let i = 0; i < 200; i++) first.push((await time(() => chatHistory(deps, principal, { cursorKey })))[0]);
    report('chat_history first page (domain)', first, 20);
    const deep: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const [ms, page]: [number, ChatHistoryResponse] = await time(() => chatHistory(deps, principal, { cursorKey, ...(cursor ? { cursor } : {}) }));
      deep.push(ms);
      cursor = page.next_cursor ?? undefined;
    }
    report('chat_history next pages (domain)', deep, 20);
    const big: number[] = [];
    for (let i = 0; i < 100; i++) big.push((await time(() => chatHistory(deps, principal, { cursorKey, limit: 500 })))[0]);
    report('chat_history limit=500 (domain)', big, 20);

    const queries = ['revenue', 'Germany margin', 'electronics trend quarter', 'churn', 'top customers Japan', 'zzznothing', 'rev', 'discount returned mobile', 'w3b', 'Books Sports'];
    const search: number[] = [];
    const searchCpu: number[] = [];
    for (let i = 0; i < 500; i++) {
      const { wall, cpu } = await timeCpu(() => searchChats(deps, principal, { q: queries[i % queries.length]!, limit: 30 }));
      search.push(wall);
      searchCpu.push(cpu);
    }
    report('search_chats (domain, 10 query shapes)', search, 50);
    report('  the same, cpu (issue 38: p99 < 20 ms)', searchCpu, 20);
    // Per shape, with the process's CPU time per search next to the wall time.
    for (const q of queries) {
      const one: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < 20; i++) {
        const used = await timeCpu(() => searchChats(deps, principal, { q }));
        one.push(used.wall);
        cpu.push(used.cpu);
      }
      report(`  search_chats "${q}"`, one, 50);
      console.log(`${''.padEnd(44)} cpu p50=${percentile(cpu.sort((a, b) => a - b), 50).toFixed(2)}ms`);
    }

    const server = await listen(app, { host: '127.0.0.1', port: 0, graceMs: 500 });
    try {
      const token = (await startSession({ store: sqliteExecutor(db), clock: systemClock, jwtKey: cursorKey }, user, 'bench')).token;
      const get = (path: string) => fetch(server.url + path, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json());
      const http: number[] = [];
      for (let i = 0; i < 300; i++) http.push((await time(() => get('/api/chat_history')))[0]);
      report('GET /api/chat_history (HTTP, loopback)', http, 20);
      const httpSearch: number[] = [];
      for (let i = 0; i < 300; i++) httpSearch.push((await time(() => get(`/api/search_chats?q=${encodeURIComponent(queries[i % queries.length]!)}`)))[0]);
      report('GET /api/search_chats (HTTP, loopback)', httpSearch, 50);
    } finally {
      await server.stop();
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seedUser(app: App) {
  const bootstrap = sqliteExecutor(app.services.store.sqlite!);
  await createOrganization(bootstrap, systemClock, { id: 'bench', name: 'Bench' });
  const user = await createUser(bootstrap, systemClock, { email: 'bench@example.com', name: 'bench', passwordHash: null, emailVerified: true });
  await setMembership(bootstrap, systemClock, { userId: user.id, orgId: 'bench', role: 'user', permissions: [] });
  return user;
}

/** The bench's user in a copied database, which must hold as many chats as this run asks for. */
async function seededUser(app: App) {
  const db = app.services.store.sqlite!;
  const chats = (db.prepare('SELECT count(*) AS n FROM chats').get() as { n: number }).n;
  if (chats !== CHATS) throw new Error(`${SEEDED} holds ${chats} chats, not BENCH_CHATS=${CHATS}: remove it to seed again`);
  const user = await findUserByEmail(sqliteExecutor(db), 'bench@example.com');
  if (!user) throw new Error(`${SEEDED} has no bench user: remove it to seed again`);
  return user;
}

/**
 * Writes the chats a transaction of 100 chats (1,000 messages) at a time, as arriving answers do, each
 * message queued for search by its trigger; between transactions the service's search indexer drains
 * the queue (the seed writes beside the service, so it nudges the indexer as a write would). Returns the
 * time spent waiting for the drain. The last transaction's messages are left for the first search.
 */
async function seed(app: App, userId: string): Promise<number> {
  const db = app.services.store.sqlite!;
  const { searchIndex } = app.services.chats;
  const rnd = prng(42);
  const word = () => (rnd() < 0.45 ? WORDS[Math.floor(rnd() * rnd() * WORDS.length)]! : FILLER[Math.floor(rnd() * FILLER.length)]!);
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const chat = db.prepare('INSERT INTO chats (org_id, chat_id, user_id, title, agentic, pinned_at, archived_at, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)');
  const msg = db.prepare('INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const start = Date.UTC(2024, 0, 1);
  const batch = db.transaction((from: number, to: number) => {
    for (let c = from; c < to; c++) {
      const at = start + c * 60_000;
      const pk = Number(chat.run('bench', `chat-${c}`, userId, sentence(6), c % 997 === 0 ? at : null, c % 101 === 0 ? at : null, at, at).lastInsertRowid);
      for (let m = 0; m < MESSAGES_PER_CHAT; m++) msg.run(pk, `m-${c}-${m}`, m % 2 === 0 ? 'user' : 'assistant', sentence(m % 2 === 0 ? 10 : 30), m, at + m);
    }
  });
  let waited = 0;
  for (let c = 0; c < CHATS; c += SEED_CHATS_PER_TRANSACTION) {
    batch(c, Math.min(CHATS, c + SEED_CHATS_PER_TRANSACTION));
    searchIndex.nudge();
    if (c + SEED_CHATS_PER_TRANSACTION < CHATS) waited += (await time(() => searchIndex.idle()))[0];
  }
  return waited;
}
