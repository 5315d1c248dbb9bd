// A dashboard of 12 tiles on the demo warehouse (120,000 orders by default) opened by 20 viewers at
// once, with a date filter set: each viewer reads the dashboard and runs its tiles, either as the web
// client does now (one streamed POST /api/dashboards/{id}/run per viewer, mode `run`) or as it did
// before (one request per tile, mode `tiles`), both measured in the same run, alternated. The figure
// is the time to the last tile, p95 over the viewers, as a ratio against the slowest tile's own query
// measured alone (its saved question run by one viewer, median of 5) in the same run. Goal (issue
// 37): <= 2x. The dashboard is opened once before the timed rounds, as any dashboard is before its
// busy hour: the result columns a filter needs are then known; the clock then moves past the life of
// recent results before each timed round, so that it reads the warehouse. A second round right after
// it, answered by the first one's results, shows what the requests cost without any warehouse work.
// The viewers' fetch clients run in a process of their own (bench/dashboards-client.ts); this
// process is the gateway's, and its CPU time is printed apart from the clients' and the query
// processes' (BENCH_CPU_PROFILE=<file> writes a CPU profile of the gateway during the first `run` round).
// A fresh round must execute its 12 distinct statements, which no machine does in less than their
// times alone spread over its cores: the bench also measures each tile's statement alone as the round
// runs it (with the filter, read afresh, median of 5, with its CPU) and prints that hardware bound,
// max(slowest, sum / cores), beside the figure, and the p95 as a ratio to both.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { DEMO_ORG_ID } from '../src/compose/demo/seed-demo.ts';
import { DEMO_CONNECTION_ID } from '../src/data/index.ts';
import { RECENT_RESULT_MS } from '../src/data/query/recent-results.ts';
import { call } from '../test/helpers/api.ts';
import { startTestApp, type TestApp } from '../test/helpers/app.ts';

const VIEWERS = Number(process.env['BENCH_VIEWERS'] ?? 20);
const ORDERS = process.env['BENCH_ORDERS'] ?? '120000';

/** Twelve questions of the kinds a sales dashboard holds: totals, breakdowns, series, a top list. */
const QUESTIONS = [
  'SELECT count(*) AS orders, sum(total_amount) AS revenue FROM orders',
  'SELECT order_date, count(*) AS orders FROM orders GROUP BY order_date ORDER BY order_date',
  'SELECT order_date, sum(total_amount) AS revenue FROM orders GROUP BY order_date ORDER BY order_date',
  'SELECT channel, count(*) AS orders FROM orders GROUP BY channel ORDER BY channel',
  'SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status',
  "SELECT date_trunc('month', order_date) AS month, sum(total_amount) AS revenue FROM orders GROUP BY 1 ORDER BY 1",
  'SELECT c.country, sum(o.total_amount) AS revenue FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1 ORDER BY 2 DESC',
  'SELECT c.segment, count(*) AS orders FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1 ORDER BY 1',
  'SELECT p.category, sum(i.quantity) AS units FROM order_items i JOIN products p ON p.product_id = i.product_id GROUP BY 1 ORDER BY 2 DESC',
  'SELECT o.order_date, sum(i.quantity) AS units FROM order_items i JOIN orders o ON o.order_id = i.order_id GROUP BY 1 ORDER BY 1',
  'SELECT p.name, sum(i.quantity * i.unit_price) AS revenue FROM order_items i JOIN products p ON p.product_id = i.product_id GROUP BY 1 ORDER BY 2 DESC LIMIT 10',
  'SELECT c.name, count(*) AS orders FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1 ORDER BY 2 DESC LIMIT 10',
];
const FILTERS = [{ id: 'when', from: '2026-01-01', to: '2026-06-30' }];

async function ok(t0: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await call(t0, method, path, { token, ...(body ? { body } : {}) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return res.body as Record<string, unknown>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

type Mode = 'tiles' | 'run';

/** The viewers' process: one job a line in, each viewer's time to the last tile and its CPU ms out. */
function viewersProcess() {
  const proc = spawn(process.execPath, ['--import=tsx', new URL('./dashboards-client.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  return {
    pid: proc.pid!,
    async round(job: Record<string, unknown>): Promise<{ times: number[]; cpuMs: number }> {
      proc.stdin.write(`${JSON.stringify(job)}\n`);
      const next = await answers.next();
      if (next.done) throw new Error('the viewers\' process ended');
      return JSON.parse(next.value) as { times: number[]; cpuMs: number };
    },
    stop: () => proc.stdin.end(),
  };
}

/** CPU ms of a /proc stat line: its own (utime, stime) and, with `reaped`, its ended children's. */
function statCpu(pid: string, reaped: boolean): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number);
  // Fields 14-17 of proc(5), counted from the state (field 3) here; ticks of 10 ms.
  return (fields[11]! + fields[12]! + (reaped ? fields[13]! + fields[14]! : 0)) * 10;
}

/** CPU ms of this process (the gateway) and of the query processes (not the viewers' `clients`), ended ones included; 0 where /proc is absent. */
function treeCpuMs(clients: number): { gateway: number; queries: number } {
  try {
    const children = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter((pid) => pid && pid !== String(clients)));
    const own = statCpu('self', false);
    return { gateway: own, queries: statCpu('self', true) - own + children.reduce((sum, pid) => sum + statCpu(pid, true), 0) };
  } catch {
    return { gateway: 0, queries: 0 };
  }
}

type Viewers = ReturnType<typeof viewersProcess>;

/** 20 viewers opening the dashboard at once: each one's time to the last tile, and the CPU time spent meanwhile. */
async function round(clients: Viewers, job: Record<string, unknown>): Promise<{ times: number[]; cpu: string }> {
  const before = treeCpuMs(clients.pid);
  const { times, cpuMs } = await clients.round(job);
  const after = treeCpuMs(clients.pid);
  return { times, cpu: `CPU: gateway ${after.gateway - before.gateway} ms, query processes ${after.queries - before.queries} ms, viewers' clients ${cpuMs} ms` };
}

/** A fresh round (the warehouse read) and the same again at once (recent results), in one mode, printed. */
async function measure(t0: TestApp, clients: Viewers, job: Record<string, unknown>, ref: Reference, profile: string | undefined): Promise<void> {
  const { slowest, bound } = ref;
  t0.clock.advance(RECENT_RESULT_MS);
  const { times, cpu } = await profiled(profile, () => round(clients, job));
  const figure = p95(times);
  const mode = job['mode'] === 'run' ? 'one streamed run per viewer' : 'one request per tile';
  console.log(`[${mode}] ${VIEWERS} viewers at once, 12 tiles each with a date filter: time to the last tile p50 ${median(times).toFixed(0)} ms, p95 ${figure.toFixed(0)} ms = ${(figure / slowest).toFixed(2)}x the slowest question alone (goal <= 2x: ${figure <= 2 * slowest ? 'met' : 'NOT met'}), ${(figure / bound).toFixed(2)}x the hardware bound; ${cpu}; load average ${loadavg()[0]!.toFixed(1)}`);
  const again = await round(clients, job);
  console.log(`[${mode}] the same round again at once, answered by recent results: p95 ${p95(again.times).toFixed(0)} ms (${(p95(again.times) / slowest).toFixed(2)}x the slowest alone), ${again.cpu}; load average ${loadavg()[0]!.toFixed(1)}`);
}

/** `f`, with a CPU profile of it written to `file` when one is asked for. */
async function profiled<T>(file: string | undefined, f: () => Promise<T>): Promise<T> {
  if (!file) return f();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await f();
  } finally {
    writeFileSync(file, JSON.stringify((await session.post('Profiler.stop')).profile));
    session.disconnect();
  }
}

interface Reference {
  /** The reference: the slowest saved question run alone (median of 5). */
  slowest: number;
  /** What the hardware allows a fresh round: max(slowest tile statement alone, their sum / cores). */
  bound: number;
}

/** Median wall ms of 5 runs of `once`, one after another, and the mean CPU ms of one (gateway + query processes). */
async function alone(once: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const runs: number[] = [];
  const before = treeCpuMs(-1);
  for (let r = 0; r < 5; r++) {
    const started = performance.now();
    await once();
    runs.push(performance.now() - started);
  }
  const after = treeCpuMs(-1);
  return { ms: median(runs), cpuMs: (after.gateway + after.queries - before.gateway - before.queries) / 5 };
}

/**
 * Each saved question alone (the reference), then each tile's statement alone as the round
 * runs it (filtered, read afresh through the single-tile route), and what that allows on this machine.
 */
async function reference(t0: TestApp, viewer: string, ids: string[], dashboardId: string): Promise<Reference> {
  const questions: number[] = [];
  for (const id of ids) questions.push((await alone(() => ok(t0, viewer, 'POST', `/api/saved_questions/${id}/run`))).ms);
  const slowest = Math.max(...questions);
  console.log(`saved questions alone (median of 5 each): ${questions.map((ms) => ms.toFixed(0)).join(', ')} ms; slowest ${slowest.toFixed(1)} ms (the issue's reference)`);
  const d = await ok(t0, viewer, 'GET', `/api/dashboards/${dashboardId}`);
  const tiles: { ms: number; cpuMs: number }[] = [];
  for (const t of d['tiles'] as { id: string }[]) tiles.push(await alone(() => ok(t0, viewer, 'POST', `/api/dashboards/${dashboardId}/tiles/${t.id}/run`, { filters: FILTERS, refresh: true })));
  const cores = availableParallelism();
  const sum = tiles.reduce((s, x) => s + x.ms, 0);
  const cpu = tiles.reduce((s, x) => s + x.cpuMs, 0);
  const bound = Math.max(...tiles.map((x) => x.ms), sum / cores);
  console.log(`tile statements alone as the round runs them (filtered, fresh; median of 5 each): ${tiles.map((x) => x.ms.toFixed(0)).join(', ')} ms, CPU ${tiles.map((x) => x.cpuMs.toFixed(0)).join(', ')} ms`);
  console.log(`hardware bound: sum ${sum.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms) over ${cores} cores = ${bound.toFixed(0)} ms, ${(bound / slowest).toFixed(2)}x the slowest question alone; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  return { slowest, bound };
}

/** Runs the bench and prints the figure, its reference and their ratio. */
export async function run(): Promise<void> {
  const t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: ORDERS, SEXTANT_LOG_LEVEL: 'warn' });
  try {
    const owner = t0.session(t0.user({ orgId: DEMO_ORG_ID, role: 'admin' }));
    const ids: string[] = [];
    for (const [i, sql] of QUESTIONS.entries()) ids.push((await ok(t0, owner, 'POST', '/api/saved_questions', { title: `Tile ${i + 1}`, connection_id: DEMO_CONNECTION_ID, sql, visibility: 'organization' }))['id'] as string);
    const tiles = ids.map((id, i) => ({ saved_question_id: id, x: (i % 3) * 4, y: Math.floor(i / 3) * 4, w: 4, h: 4 }));
    const filters = [{ id: 'when', type: 'date_range', field: 'order_date' }];
    const dashboardId = (await ok(t0, owner, 'POST', '/api/dashboards', { title: 'Sales', visibility: 'organization', tiles, filters }))['id'] as string;
    const viewers = Array.from({ length: VIEWERS }, () => t0.session(t0.user({ orgId: DEMO_ORG_ID, role: 'admin' })));

    const ref = await reference(t0, viewers[0]!, ids, dashboardId);

    await (await t0.fetch(`/api/dashboards/${dashboardId}/run`, { method: 'POST', headers: { authorization: `Bearer ${viewers[0]!}`, 'content-type': 'application/json' }, body: JSON.stringify({ filters: FILTERS }) })).text();
    const clients = viewersProcess();
    try {
      const job = (mode: Mode) => ({ url: t0.url, tokens: viewers, dashboardId, filters: FILTERS, mode });
      // Old and new alternated (ABBA), so that the machine's load drifts over both alike.
      for (const [i, mode] of (['tiles', 'run', 'run', 'tiles'] as Mode[]).entries()) await measure(t0, clients, job(mode), ref, i === 1 ? process.env['BENCH_CPU_PROFILE'] : undefined);
    } finally {
      clients.stop();
    }
  } finally {
    await t0.stop();
  }
}
