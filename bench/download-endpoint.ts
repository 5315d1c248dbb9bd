// The download benchmark through the real endpoint: a running gateway on loopback serves
// `GET /api/download_big_csv_agentic` for an answer over a 1,000,000-row DuckDB table, read by a
// fetch client that discards the bytes. The caller is a regular user with a row filter, so the
// governed path (guard, row-level security, query log) is what is measured. The client is curl in a
// child process when it exists (so the RSS is the gateway's), else fetch in this process. The row count
// is the server's own, from the query log. The reference is DuckDB's COPY of the same table (copy-reference.ts).
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { createOrganization, createUser, principalFor, setMembership, startSession } from '../src/auth/index.ts';
import { recordAnswer } from '../src/chats/index.ts';
import { loadConfig } from '../src/config.ts';
import { createConnection } from '../src/data/connections/index.ts';
import { createMemoryTableDocs } from '../src/data/table-docs-memory.ts';
import { createLogger } from '../src/log.ts';
import { listen } from '../src/server.ts';
import { copyReferences, type Measured, type RawMeasure } from './copy-reference.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Got {
  status: number;
  bytes: number;
  /** Seconds until the first byte of the body (curl only). */
  firstByte?: number;
}

/** Downloads `url` with curl into /dev/null; undefined when curl is missing. */
function curl(url: string): Promise<Got | undefined> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_starttransfer}', url], (err, stdout) => {
      if (err) return (err as NodeJS.ErrnoException).code === 'ENOENT' ? resolve(undefined) : reject(err);
      const [status, bytes, firstByte] = stdout.trim().split(' ').map(Number);
      resolve({ status: status!, bytes: bytes!, firstByte: firstByte! });
    });
  });
}

/** Downloads `url` with fetch in this process, discarding the body. */
async function fetchAll(url: string): Promise<Got> {
  const res = await fetch(url);
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
  return { status: res.status, bytes };
}

/** Streams `rows` rows through the endpoint, then DuckDB's COPY of the same table, in this run. */
export async function benchEndpoint(rows: number, query: string, measured: Measured): Promise<RawMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-endpoint-'));
  const root = join(dir, 'warehouse');
  mkdirSync(root);
  const file = join(root, 'wh.duckdb');
  const setup = await DuckDBInstance.create(file);
  const sc = await setup.connect();
  await sc.run(`CREATE TABLE orders AS ${query}`);
  sc.closeSync();
  setup.closeSync();

  const port = await freePort();
  const config = loadConfig({
    SEXTANT_DATA_DIR: join(dir, 'data'),
    SEXTANT_PORT: String(port),
    SEXTANT_LOG_LEVEL: 'warn',
    SEXTANT_SEED_DEMO: 'false',
    SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
    SEXTANT_WAREHOUSE_ROOTS: root,
    SEXTANT_QUERY_TIMEOUT_MS: '600000',
  });
  const docs = createMemoryTableDocs();
  docs.setTables('bench', undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: "status <> 'unknown'" }] }]);
  const app = await createApp(config, { tableDocs: docs, log: createLogger('warn') });
  const running = await listen(app, { host: '127.0.0.1', port, graceMs: 1000 });
  const results: RawMeasure[] = [];
  try {
    const { db } = app.services.store;
    const clock = app.services.clock;
    createOrganization(db, clock, { id: 'bench', name: 'Bench' });
    const user = createUser(db, clock, { email: 'bench@example.com', name: 'bench', passwordHash: null, emailVerified: true });
    setMembership(db, clock, { userId: user.id, orgId: 'bench', role: 'user', permissions: [] });
    const token = startSession({ db, clock, jwtKey: config.secrets.jwtKey }, user, 'bench').token;
    createConnection(app.services.data, 'bench', null, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
    const principal = principalFor(db, user, 'bench', 'session', [])!;
    recordAnswer({ db, clock }, principal, {
      chatId: 'bench-chat',
      content: 'All orders.',
      answer: { tables: [{ df_key: 'df_orders', sql: 'SELECT * FROM orders', connection_id: 'wh', dialect: 'duckdb' }] },
    });

    const url = `${running.url}/api/download_big_csv_agentic?chat_id=bench-chat&df_key=df_orders&token=${encodeURIComponent(token)}`;
    let client = 'curl';
    const e = await measured(async () => {
      const got = (await curl(url)) ?? ((client = 'fetch'), await fetchAll(url));
      if (got.status !== 200) throw new Error(`download answered ${got.status}`);
      return got;
    });
    // Before the first byte: credentials, the answer's lookup, opening the warehouse, guard, row filters.
    if (e.value.firstByte !== undefined) console.log(`first byte after ${e.value.firstByte.toFixed(2)} s`);
    const logged = db.prepare("SELECT row_count FROM query_log WHERE org_id = 'bench' AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1").get() as { row_count: number };
    results.push({ method: `GET /api/download_big_csv_agentic (governed, ${client})`, rows: logged.row_count, seconds: e.seconds, peakRss: e.peakRss, startRss: e.startRss, bytes: e.value.bytes });

    results.push(...(await copyReferences(measured, { sql: 'SELECT * FROM wh.orders', file: join(dir, 'copy.csv'), rows, attach: file })));
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
