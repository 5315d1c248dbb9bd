// The gateway's hot path beside a bare Koa hello-world, measured in the same run (issue 21, part 5):
// GET /api/health, and GET /api/auth/me with each credential kind (API key, bearer JWT, session
// cookie). Every target is loaded at 32 connections for a few seconds, the targets alternating, and
// the whole round twice; then each gets a fixed 1,000 requests per second to read p99 at a moderate
// load. Printed: requests per second, p99, errors, the ratio to bare Koa of the same round, and the
// CPU time the serving process spent per request (user + system, from /proc) with its ratio to bare
// Koa's: on a shared machine throughput measures the neighbours too, CPU per request much less so, and
// bare Koa's cost over the gateway's is the share of bare Koa's throughput the gateway would reach on
// the same free cores. Goals: /api/health >= 80 % of bare Koa, /api/auth/me >= 60 % with every credential kind, p99 < 5 ms
// at 1,000 req/s, 0 errors.
//
// Three processes: the gateway as `npm start` runs it (compiled build, default logging to a stdout
// that is discarded; bench/gateway-process.ts), bare Koa, and this one, which drives the load with
// autocannon. BENCH_SECONDS sets the seconds per measurement (default 5); BENCH_GATEWAY_NODE_ARGS
// (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the gateway.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGateway, cpuMsOf, freePort, startGateway } from './gateway-process.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = 32;
const FIXED_RATE = 1000;
const ROUNDS = 2;
const ROOT = new URL('..', import.meta.url).pathname;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The process serving it, whose CPU time is measured. */
  pid: number;
  /** The share of bare Koa's throughput this target should reach. */
  goal?: number;
}

interface Measure {
  rps: number;
  p99: number;
  errors: number;
  /** CPU time of the serving process per request, µs. */
  cpuUs: number;
}

/** Bare Koa answering every request with a small body, in a process of its own. */
async function startBareKoa(): Promise<{ pid: number; url: string; stop(): void }> {
  const port = await freePort();
  const code = `import Koa from 'koa'; const app = new Koa(); app.use((ctx) => { ctx.body = 'hello world'; }); app.listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    proc.once('exit', (c) => reject(new Error(`bare Koa exited with ${c}`)));
    proc.stdout.once('data', () => resolve());
  });
  return { pid: proc.pid!, url: `http://127.0.0.1:${port}/`, stop: () => proc.kill() };
}

async function json(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Signs in as the demo analyst twice (a bearer JWT and a cookie session) and creates an API token. */
export async function credentials(base: string): Promise<{ jwt: string; cookie: string; apiKey: string }> {
  const signIn = () =>
    json(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'analyst@demo.sextant.local', password: 'demo-analyst-password' }),
    }).then((b) => b['access_token'] as string);
  const jwt = await signIn();
  const cookie = await signIn();
  const created = await json(`${base}/api/auth/user/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
    body: JSON.stringify({ name: 'bench' }),
  });
  return { jwt, cookie: `sextant_session=${cookie}`, apiKey: created['token'] as string };
}

const cpuOf = (pid: number) => {
  const c = cpuMsOf(pid);
  return c.user + c.system;
};

async function load(target: Target): Promise<Measure> {
  const cpu = cpuOf(target.pid);
  const result = await autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration: SECONDS });
  const cpuUs = ((cpuOf(target.pid) - cpu) * 1000) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx, cpuUs };
}

/**
 * p99 at a steady rate: one request every 1/rate seconds whatever came back (open loop; autocannon's
 * rate option sends each second's share in a burst), over keep-alive connections. Latency counts from
 * when a request was due, so a stall delays the requests behind it too (no coordinated omission).
 */
async function fixedRate(target: Target, rate: number): Promise<Measure> {
  const cpu = cpuOf(target.pid);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  const total = rate * SECONDS;
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    let done = 0;
    const finish = (due: number, ok: boolean) => {
      latencies.push(performance.now() - due);
      if (!ok) errors++;
      if (++done === total) resolve();
    };
    const tick = () => {
      const dueNow = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      for (; sent < dueNow; sent++) {
        const due = start + (sent * 1000) / rate;
        const req = request(target.url, { agent, headers: target.headers }, (res) => {
          res.resume();
          res.once('end', () => finish(due, res.statusCode === 200));
        });
        req.once('error', () => finish(due, false));
        req.end();
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: total / SECONDS, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)]! * 10) / 10, errors, cpuUs: ((cpuOf(target.pid) - cpu) * 1000) / total };
}

const pct = (n: number) => `${Math.round(n * 100)} %`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

/** The benchmark: prints a table per round, the fixed-rate p99 and the verdict. */
export async function run(): Promise<void> {
  buildGateway();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-gateway-'));
  const koa = await startBareKoa();
  const gateway = await startGateway({
    SEXTANT_PORT: String(await freePort()),
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_DEMO_WAREHOUSE_ORDERS: '100',
    SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
  });
  try {
    const { jwt, cookie, apiKey } = await credentials(gateway.url);
    const me = `${gateway.url}/api/auth/me`;
    const targets: Target[] = [
      { name: 'bare Koa', url: koa.url, headers: {}, pid: koa.pid },
      { name: 'GET /api/health', url: `${gateway.url}/api/health`, headers: {}, pid: gateway.pid, goal: 0.8 },
      { name: '/api/auth/me, API key', url: me, headers: { 'api-key': apiKey }, pid: gateway.pid, goal: 0.6 },
      { name: '/api/auth/me, bearer JWT', url: me, headers: { authorization: `Bearer ${jwt}` }, pid: gateway.pid, goal: 0.6 },
      { name: '/api/auth/me, session cookie', url: me, headers: { cookie }, pid: gateway.pid, goal: 0.6 },
    ];
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} rounds; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // Warm-up: the JIT and the gateway's caches, not measured.
    for (const t of targets) await autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: 1 });
    const ratios = new Map<string, number[]>();
    const costRatios = new Map<string, number[]>();
    const add = (map: Map<string, number[]>, key: string, v: number) => map.set(key, [...(map.get(key) ?? []), v]);
    let errors = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`\nround ${round}\n| target | req/s | p99 ms | errors | vs bare Koa | CPU µs/request | bare Koa's CPU/request over this one |\n|---|---:|---:|---:|---:|---:|---:|`);
      let bare: Measure | undefined;
      for (const t of targets) {
        const m = await load(t);
        if (t.goal === undefined) bare = m;
        const ratio = m.rps / bare!.rps;
        const costRatio = bare!.cpuUs / m.cpuUs;
        add(ratios, t.name, ratio);
        add(costRatios, t.name, costRatio);
        errors += m.errors;
        console.log(`| ${t.name} | ${pad(Math.round(m.rps), 6)} | ${pad(m.p99, 3)} | ${m.errors} | ${pct(ratio)} | ${pad(m.cpuUs.toFixed(1), 6)} | ${pct(costRatio)} |`);
      }
    }
    console.log(`\nat a fixed ${FIXED_RATE} req/s\n| target | p99 ms | errors | CPU µs/request |\n|---|---:|---:|---:|`);
    const fixedP99 = new Map<string, number>();
    for (const t of targets) {
      const m = await fixedRate(t, FIXED_RATE);
      fixedP99.set(t.name, m.p99);
      errors += m.errors;
      console.log(`| ${t.name} | ${pad(m.p99, 3)} | ${m.errors} | ${pad(m.cpuUs.toFixed(1), 6)} |`);
    }
    console.log(`\nverdict (mean of the rounds; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}):`);
    const mean = (r: number[]) => r.reduce((a, b) => a + b, 0) / r.length;
    for (const t of targets.filter((x) => x.goal !== undefined)) {
      const rps = mean(ratios.get(t.name)!);
      const cost = mean(costRatios.get(t.name)!);
      const p99 = fixedP99.get(t.name)!;
      console.log(`  ${t.name}: ${pct(rps)} of bare Koa's req/s, ${pct(cost)} by CPU per request (goal ${pct(t.goal!)}) ${cost >= t.goal! ? 'met' : 'MISSED'}; p99 at ${FIXED_RATE} req/s ${p99} ms ${p99 < 5 ? 'met' : 'MISSED'}`);
    }
    console.log(`  errors: ${errors} ${errors === 0 ? 'met' : 'MISSED'}`);
  } finally {
    koa.stop();
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
