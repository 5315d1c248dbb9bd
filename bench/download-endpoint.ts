// The download benchmark through the real endpoint: the gateway runs as `npm start` runs it (the
// compiled build, `node dist/main.js`, in a process of its own) and serves
// `GET /api/download_big_csv_agentic` for an answer over a 1,000,000-row DuckDB table to curl, which
// discards the bytes. The caller is a regular user with a row filter, so the governed path (guard,
// row-level security, query log) is what is measured. The gateway's memory is read from /proc: its
// RSS before the download, and its peak during it (VmHWM, reset before the download, and samples every
// 10 ms). The row count is the server's own, from the query log. The reference is DuckDB's COPY of the
// same table in this process (copy-reference.ts).
import { DuckDBInstance } from '@duckdb/node-api';
import { sqliteExecutor } from '../src/store/index.ts';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { createOrganization, createUser, principalFor, setMembership, startSession } from '../src/auth/index.ts';
import { recordAnswer } from '../src/chats/index.ts';
import { loadConfig } from '../src/config.ts';
import { createConnection } from '../src/data/connections/index.ts';
import { createItem } from '../src/knowledge/index.ts';
import { createLogger } from '../src/log.ts';
import { copyReferences, governedCopyBound, medianOf, type Measured, type RawMeasure } from './copy-reference.ts';
import { downloadAb } from './download-ab.ts';
import { buildGateway, cpuMsOf, freePort, rssOf, startGateway, treeCpuMsOf } from './gateway-process.ts';

/** The bench user's row filter on the orders (every row passes it, as the reference COPY reads them all). */
const ROW_FILTER = "status <> 'unknown'";
/**
 * Other shapes of the download, for A/B runs (export-threads.ts): BENCH_DOWNLOAD_SQL, the answer's
 * statement (default `SELECT * FROM orders`), and BENCH_NO_ROW_FILTER=1, the orders without the filter.
 * The figure is the default.
 */
const DOWNLOAD_SQL = process.env['BENCH_DOWNLOAD_SQL'] ?? 'SELECT * FROM orders';
const FILTERED = process.env['BENCH_NO_ROW_FILTER'] !== '1';

interface Got {
  status: number;
  bytes: number;
  /** Seconds until the first byte of the body. */
  firstByte: number;
}

/** Downloads `url` with curl into /dev/null. */
function curl(url: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_starttransfer}', url], (err, stdout) => {
      if (err) return reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('this benchmark needs curl') : err);
      const [status, bytes, firstByte] = stdout.trim().split(' ').map(Number);
      resolve({ status: status!, bytes: bytes!, firstByte: firstByte! });
    });
  });
}

/** Like `measured`, for another process: its RSS at the start and its peak while `fn` runs. */
function measuredProcess(pid: number): Measured {
  return async (fn) => {
    // Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS, so the peak is this measurement's.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const startRss = rssOf(pid).rss;
    let sampled = startRss;
    const timer = setInterval(() => (sampled = Math.max(sampled, rssOf(pid).rss)), 10);
    const start = process.hrtime.bigint();
    try {
      const value = await fn();
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      return { value, seconds, peakRss: Math.max(sampled, rssOf(pid).hwm), startRss };
    } finally {
      clearInterval(timer);
    }
  };
}

/** Streams `rows` rows through the endpoint, then DuckDB's COPY of the same table, in this run. */
export async function benchEndpoint(rows: number, query: string, measured: Measured): Promise<RawMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-endpoint-'));
  const root = join(dir, 'warehouse');
  // The organization's own folder under the warehouse root, where its connection path resolves.
  mkdirSync(join(root, 'bench'), { recursive: true });
  const file = join(root, 'bench', 'wh.duckdb');
  const setup = await DuckDBInstance.create(file);
  const sc = await setup.connect();
  await sc.run(`CREATE TABLE orders AS ${query}`);
  sc.closeSync();
  setup.closeSync();

  const port = await freePort();
  const env = {
    SEXTANT_DATA_DIR: join(dir, 'data'),
    SEXTANT_PORT: String(port),
    SEXTANT_LOG_LEVEL: 'warn',
    SEXTANT_SEED_DEMO: 'false',
    SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
    SEXTANT_WAREHOUSE_ROOTS: root,
    SEXTANT_QUERY_TIMEOUT_MS: '600000',
  };
  const config = loadConfig(env);

  // The organization, its warehouse, the row filter (in knowledge) and an answer to download, written
  // with the service's own modules before the gateway starts on the same data directory.
  const seeding = await createApp(config, { log: createLogger('warn') });
  let token: string;
  try {
    const db = seeding.services.store.sqlite!;
    const clock = seeding.services.clock;
    await createOrganization(sqliteExecutor(db), clock, { id: 'bench', name: 'Bench' });
    const admin = await createUser(sqliteExecutor(db), clock, { email: 'admin@example.com', name: 'admin', passwordHash: null, emailVerified: true });
    await setMembership(sqliteExecutor(db), clock, { userId: admin.id, orgId: 'bench', role: 'admin' });
    const user = await createUser(sqliteExecutor(db), clock, { email: 'bench@example.com', name: 'bench', passwordHash: null, emailVerified: true });
    await setMembership(sqliteExecutor(db), clock, { userId: user.id, orgId: 'bench', role: 'user' });
    createConnection(seeding.services.data, 'bench', null, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
    await createItem(seeding.services.knowledge, (await principalFor(sqliteExecutor(db), admin, 'bench', 'session', []))!, undefined, 'tables', {
      connection: 'wh',
      schema: 'main',
      name: 'orders',
      ...(FILTERED ? { row_filters: [{ filter: ROW_FILTER }] } : {}),
    });
    await recordAnswer(seeding.services.chats, (await principalFor(sqliteExecutor(db), user, 'bench', 'session', []))!, {
      chatId: 'bench-chat',
      content: 'All orders.',
      answer: { tables: [{ df_key: 'df_orders', sql: DOWNLOAD_SQL, connection_id: 'wh', dialect: 'duckdb' }] },
    });
    token = (await startSession({ store: sqliteExecutor(db), clock, jwtKey: config.secrets.jwtKey }, user, 'bench')).token;
  } finally {
    await seeding.close();
  }

  // BENCH_NO_BUILD=1 starts the build already there (A/B runs of two builds, with BENCH_GATEWAY_DIST).
  if (process.env['BENCH_NO_BUILD'] !== '1') buildGateway();
  const other = process.env['BENCH_AB_DIST'];
  if (other) {
    await downloadAb({ env, token, file, dir, rowFilter: ROW_FILTER }, other);
    rmSync(dir, { recursive: true, force: true });
    return [];
  }
  const gateway = await startGateway(env);
  const base = gateway.url;
  const results: RawMeasure[] = [];
  try {
    // A first request warms the process (credentials, knowledge read) as a served gateway would be.
    const warm = await fetch(`${base}/api/download_big_csv_agentic?chat_id=bench-chat&df_key=nope&token=${encodeURIComponent(token)}`);
    await warm.arrayBuffer();
    const url = `${base}/api/download_big_csv_agentic?chat_id=bench-chat&df_key=df_orders&token=${encodeURIComponent(token)}`;
    const log = new Database(join(env.SEXTANT_DATA_DIR, 'sextant.db'), { readonly: true });
    const loggedRows = log.prepare("SELECT row_count FROM query_log WHERE org_id = 'bench' AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1");
    const firstBytes: string[] = [];
    const cpu: string[] = [];
    results.push(
      await medianOf(async () => {
        // CPU time of the gateway itself and of its warehouse query process (the tree's rest): on a
        // loaded machine wall times carry the neighbours' work, CPU time much less.
        const own = () => cpuMsOf(gateway.pid).user + cpuMsOf(gateway.pid).system;
        const own0 = own();
        const tree0 = treeCpuMsOf(gateway.pid);
        const e = await measuredProcess(gateway.pid)(async () => {
          const got = await curl(url);
          if (got.status !== 200) throw new Error(`download answered ${got.status}`);
          return got;
        });
        const ownMs = own() - own0;
        const treeMs = treeCpuMsOf(gateway.pid) - tree0;
        cpu.push(`gateway ${ownMs} ms + query process ${treeMs - ownMs} ms (wall ${(e.seconds * 1000).toFixed(0)} ms)`);
        firstBytes.push(e.value.firstByte.toFixed(2));
        const { row_count: rows } = loggedRows.get() as { row_count: number };
        return { method: 'GET /api/download_big_csv_agentic (governed; gateway process)', rows, seconds: e.seconds, peakRss: e.peakRss, startRss: e.startRss, bytes: e.value.bytes };
      }),
    );
    log.close();
    console.log(`CPU per download: ${cpu.join('; ')}`);
    // Before the first byte: credentials, the answer's lookup, opening the warehouse, guard, row filters.
    console.log(`first byte after ${firstBytes.join(', ')} s`);
  } finally {
    await gateway.stop();
  }
  results.push(...(await copyReferences(measured, { sql: 'SELECT * FROM wh.orders', file: join(dir, 'copy.csv'), rows, attach: file })));
  results.push(await governedCopyBound(measured, { file: join(dir, 'bound.csv'), rows, attach: file, table: 'orders', rowFilter: ROW_FILTER }));
  rmSync(dir, { recursive: true, force: true });
  return results;
}
