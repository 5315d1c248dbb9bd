// The same service on three installations, measured in one run (issue 27): one SQLite process, one
// PostgreSQL process, and two PostgreSQL replicas sharing one Redis and one data folder, requests
// spread over them in turn. Workloads: GET /api/auth/me with an API token and with a session cookie,
// the first and second page of GET /api/chat_history, and answers streamed from the offline model
// (POST /api/agentic/stream, read to the last event, a new chat each). Every installation runs the
// demo (a small warehouse) and holds the same number of chats before anything is measured.
//
// Printed per workload: requests per second, p50/p99 and errors, and the CPU time spent per request
// by the installation's gateway processes (with their warehouse query processes) plus its PostgreSQL
// server processes (on a shared machine throughput measures the neighbours too, CPU per request much
// less so); then every figure as a ratio to the SQLite process of the same run. Redis's own CPU is not
// counted (other users share it).
//
// BENCH_SECONDS sets the seconds each installation is measured per workload (default 3, taken as
// one-second slices in turn); BENCH_INSTALLATIONS which run (default `sqlite,postgres,replicas`;
// SQLite always runs, it is the reference). The gateway is built once (`npm run build`), as
// `npm start` would; BENCH_GATEWAY_STDOUT=1 shows the gateways' logs.
import { cpus, loadavg } from 'node:os';
import { credentials } from './gateway.ts';
import { buildGateway } from './gateway-process.ts';
import { startSetups, type Setup, type SetupName } from './replica-setups.ts';
import { closedLoop, summarize, type Load, type LoadResult, type LoadRun } from './round-robin-load.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
/** Chats every installation holds before measuring: two full history pages of 40. */
const SEEDED_CHATS = 80;
const QUESTIONS = ['How many orders are there?', 'Total revenue by channel', 'Number of customers per country', 'How many orders by status?'];

interface Workload {
  name: string;
  connections: number;
  load: Load;
}

interface Measure extends LoadResult {
  cpuUs: number;
}

/** A new chat per answer; the run succeeded when its `completed` event says so. */
function streamedAnswers(apiKey: string, tag: string): Load {
  let n = 0;
  return {
    method: 'POST',
    path: '/api/agentic/stream',
    headers: { 'api-key': apiKey },
    body: () => JSON.stringify({ chat_id: `bench-${tag}-${n}`, message: QUESTIONS[n++ % QUESTIONS.length] }),
    ok: (status, text) => status === 200 && /event: completed\ndata: \{[^\n]*"status":"completed"/.test(text),
  };
}

async function json(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Signs in, fills the installation with chats, and returns what each workload sends to it. */
async function prepare(setup: Setup): Promise<Workload[]> {
  const { apiKey, cookie } = await credentials(setup.urls[0]!);
  const seeded = await closedLoop(setup.urls, streamedAnswers(apiKey, 'seed'), { connections: 4, requests: SEEDED_CHATS });
  // A failed answer is a finding, not a reason to stop: the tables count errors too.
  if (seeded.errors > 0) console.warn(`${setup.label}: ${seeded.errors} of ${SEEDED_CHATS} answers failed while filling it: ${seeded.firstError} (BENCH_GATEWAY_STDOUT=1 shows the gateway's log)`);
  const page = await json(`${setup.urls[0]}/api/chat_history?limit=40`, { 'api-key': apiKey });
  const cursor = page['next_cursor'];
  if (typeof cursor !== 'string') throw new Error(`${setup.label}: the first history page has no next page`);
  const key = { 'api-key': apiKey };
  return [
    { name: 'GET /api/auth/me, API token', connections: 16, load: { path: '/api/auth/me', headers: key } },
    { name: 'GET /api/auth/me, session cookie', connections: 16, load: { path: '/api/auth/me', headers: { cookie } } },
    { name: 'GET /api/chat_history, page 1 of 40', connections: 16, load: { path: '/api/chat_history?limit=40', headers: key } },
    { name: 'GET /api/chat_history, page 2 (cursor)', connections: 16, load: { path: `/api/chat_history?limit=40&cursor=${encodeURIComponent(cursor)}`, headers: key } },
    { name: 'POST /api/agentic/stream, offline model', connections: 4, load: streamedAnswers(apiKey, 'load') },
  ];
}

/** Waits (5 s at most) until the installation is idle: what is left of filling it (search indexing, query processes) must not count as the first workload's. */
async function settle(setup: Setup): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const before = await setup.cpuMs();
    await new Promise((r) => setTimeout(r, 250));
    if ((await setup.cpuMs()) - before <= 10) return;
  }
}

/** One second of `w` on `setup`, with the CPU time it cost. */
async function slice(setup: Setup, w: Workload): Promise<LoadRun & { cpuMs: number }> {
  const cpu = await setup.cpuMs();
  const r = await closedLoop(setup.urls, w.load, { connections: w.connections, seconds: 1 });
  return { ...r, cpuMs: (await setup.cpuMs()) - cpu };
}

/**
 * A workload on every installation: a warm-up (JIT, caches, pools), then one-second slices taken in
 * turn, so that a burst of the machine's other work falls on all of them alike.
 */
async function measureWorkload(setups: Setup[], prepared: Workload[][], i: number): Promise<Measure[]> {
  for (const [k, s] of setups.entries()) await closedLoop(s.urls, prepared[k]![i]!.load, { connections: prepared[k]![i]!.connections, seconds: 0.5 });
  const slices = setups.map(() => [] as (LoadRun & { cpuMs: number })[]);
  for (let n = 0; n < SECONDS; n++) for (const [k, s] of setups.entries()) slices[k]!.push(await slice(s, prepared[k]![i]!));
  return slices.map((runs) => {
    const r = summarize(runs);
    return { ...r, cpuUs: (runs.reduce((sum, x) => sum + x.cpuMs, 0) * 1000) / Math.max(1, r.requests) };
  });
}

const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)} %` : '-');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

function printWorkload(w: Workload, setups: Setup[], results: Measure[]): void {
  const ref = results[0]!;
  console.log(`\n${w.name} (${w.connections} connections, ${SECONDS} s each)\n| installation | req/s | vs SQLite | p50 ms | p99 ms | errors | CPU µs/request | SQLite's CPU/request over this one |\n|---|---:|---:|---:|---:|---:|---:|---:|`);
  setups.forEach((s, i) => {
    const m = results[i]!;
    console.log(`| ${s.label} | ${m.rps.toFixed(0)} | ${pct(m.rps / ref.rps)} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.errors} | ${m.cpuUs.toFixed(0)} | ${pct(ref.cpuUs / m.cpuUs)} |`);
    if (m.firstError) console.log(`|   first error: ${m.firstError.replace(/\s+/g, ' ').slice(0, 200)} |`);
  });
}

function printSummary(workloads: Workload[], setups: Setup[], all: Measure[][]): void {
  const others = setups.slice(1);
  if (others.length === 0) return console.log('\nonly SQLite ran: nothing to compare it with');
  console.log('\nside by side: req/s of the SQLite process, and of the others as a share of it (SQLite\'s CPU per request over theirs in brackets)');
  console.log(`| workload | ${setups[0]!.label} | ${others.map((s) => s.label).join(' | ')} |\n|---|---:|${others.map(() => '---:|').join('')}`);
  workloads.forEach((w, i) => {
    const [ref, ...rest] = all[i]!;
    const cells = rest.map((m) => `${pct(m.rps / ref!.rps)} (${pct(ref!.cpuUs / m.cpuUs)})${m.errors ? `, ${m.errors} errors` : ''}`);
    console.log(`| ${w.name} | ${ref!.rps.toFixed(0)} req/s${ref!.errors ? `, ${ref!.errors} errors` : ''} | ${cells.join(' | ')} |`);
  });
}

function installations(): SetupName[] {
  const wanted = (process.env['BENCH_INSTALLATIONS'] ?? 'sqlite,postgres,replicas').split(',').map((s) => s.trim());
  return (['sqlite', 'postgres', 'replicas'] as const).filter((n) => n === 'sqlite' || wanted.includes(n));
}

/** The benchmark: starts the installations, measures every workload on each in turn, prints, cleans up. */
export async function run(): Promise<void> {
  buildGateway();
  const started = performance.now();
  const { setups, cleanup } = await startSetups(installations());
  try {
    const prepared = await Promise.all(setups.map(prepare));
    await Promise.all(setups.map(settle));
    console.log(`${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${SEEDED_CHATS} chats each; ready after ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const workloads = prepared[0]!;
    const all: Measure[][] = [];
    for (const [i, w] of workloads.entries()) {
      all.push(await measureWorkload(setups, prepared, i));
      printWorkload(w, setups, all[i]!);
    }
    printSummary(workloads, setups, all);
    console.log(`\ntook ${((performance.now() - started) / 1000).toFixed(0)} s after the build; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await cleanup();
  }
}
