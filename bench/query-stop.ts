// How the gateway holds up while each dialect's worst query runs (issue 20): the gateway runs as
// `npm start` runs it (dist, a process of its own, the demo seeded); a client polls /api/health
// every 20 ms while one query at a time runs, and the figures are the health latency (median, p99,
// max) against the same latency with nothing running, measured in the same run, and the time the
// query took to be cut against its timeout. PostgreSQL and MariaDB are measured when they answer on
// 127.0.0.1 (user postgres / root).
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { mysqlFixture, postgresFixture } from '../test/data/warehouses.ts';
import { buildGateway, freePort, startGateway } from './gateway-process.ts';

const TIMEOUT_MS = 2000;
const EVENTS = ['CREATE TABLE events (id INTEGER)', `INSERT INTO events VALUES ${Array.from({ length: 2000 }, (_, i) => `(${i})`).join(', ')}`];
const CROSS = 'SELECT count(*) AS n FROM events a, events b, events c, events d';

interface Probe {
  label: string;
  connection: string;
  sql: string;
}

const PROBES: Probe[] = [
  { label: 'SQLite cartesian product', connection: 'sqlite', sql: CROSS },
  { label: 'DuckDB cartesian product', connection: 'duckdb', sql: CROSS },
  { label: 'DuckDB 2 GB string', connection: 'duckdb', sql: "SELECT length(repeat('x', 2000000000)) AS n" },
  { label: 'PostgreSQL cartesian product', connection: 'postgresql', sql: CROSS },
  { label: 'MariaDB cartesian product', connection: 'mariadb', sql: CROSS },
  { label: 'MariaDB distinct over a product', connection: 'mariadb', sql: "SELECT count(DISTINCT MD5(CONCAT(a.id, '-', b.id, '-', c.id))) AS n FROM events a, events b, events c" },
];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Health latencies (ms) while `work` runs. */
async function healthWhile(url: string, work: Promise<unknown>): Promise<number[]> {
  let done = false;
  void work.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t = performance.now();
    await (await fetch(`${url}/api/health`)).arrayBuffer();
    out.push(performance.now() - t);
    await delay(20);
  }
  return out;
}

function fileWarehouse(dir: string, name: string): void {
  const db = new Database(join(dir, name));
  for (const s of EVENTS) db.exec(s);
  db.close();
}

/** Prints the figures. */
export async function run(): Promise<void> {
  buildGateway();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-stop-'));
  // The demo organization's warehouse folder.
  const folder = join(dataDir, 'warehouse', 'demo');
  mkdirSync(folder, { recursive: true });
  fileWarehouse(folder, 'events.sqlite');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const duck = await DuckDBInstance.create(join(folder, 'events.duckdb'));
  const c = await duck.connect();
  for (const s of EVENTS) await c.run(s);
  c.closeSync();
  duck.closeSync();
  const pg = await postgresFixture(EVENTS).catch(() => undefined);
  const my = await mysqlFixture(EVENTS).catch(() => undefined);
  const gateway = await startGateway({ SEXTANT_DATA_DIR: dataDir, SEXTANT_PORT: String(await freePort()), SEXTANT_LOG_LEVEL: 'warn', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500', SEXTANT_QUERY_TIMEOUT_MS: String(TIMEOUT_MS) });
  try {
    const signIn = await fetch(`${gateway.url}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.sextant.local', password: 'demo-admin-password' }) });
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    const post = (path: string, body: unknown) => fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const connections = [
      { id: 'sqlite', type: 'sqlite', settings: { path: 'events.sqlite' } },
      { id: 'duckdb', type: 'duckdb', settings: { path: 'events.duckdb' } },
      ...(pg ? [{ id: 'postgresql', type: 'postgresql', settings: pg.settings }] : []),
      ...(my ? [{ id: 'mariadb', type: 'mariadb', settings: my.settings }] : []),
    ];
    for (const conn of connections) {
      await (await post('/api/connections', { name: conn.id, ...conn })).arrayBuffer();
      // Warm: the first query loads what loads on first use.
      await (await post('/api/context-agent/execute-query', { connection_id: conn.id, sql: 'SELECT count(*) AS n FROM events' })).arrayBuffer();
    }
    const idle = await healthWhile(gateway.url, delay(3000));
    console.log(`query timeout ${TIMEOUT_MS} ms; health with nothing running: median ${ms(pct(idle, 0.5))}, p99 ${ms(pct(idle, 0.99))}, max ${ms(Math.max(...idle))} (${idle.length} probes)`);
    console.log('| query | answer | cut after | health median | health p99 | health max | max / idle max |');
    console.log('|---|---|---|---|---|---|---|');
    for (const p of PROBES) {
      if (!connections.some((x) => x.id === p.connection)) {
        console.log(`| ${p.label} | skipped: server absent | | | | | |`);
        continue;
      }
      const started = performance.now();
      let took = 0;
      const answer = post('/api/context-agent/execute-query', { connection_id: p.connection, sql: p.sql }).then(async (r) => {
        took = performance.now() - started;
        return `${r.status} ${((await r.json()) as { code?: string }).code ?? ''}`;
      });
      const lat = await healthWhile(gateway.url, answer);
      const max = Math.max(...lat);
      console.log(`| ${p.label} | ${await answer} | ${ms(took)} | ${ms(pct(lat, 0.5))} | ${ms(pct(lat, 0.99))} | ${ms(max)} | ${(max / Math.max(...idle)).toFixed(2)} |`);
    }
  } finally {
    await gateway.stop();
    await pg?.drop();
    await my?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
