// The CPU one answer start costs the gateway, A/B: bursts of `--runs` streamed answers started at once
// (as `bench agent` sends them), the gateway's main-thread CPU (from /proc's schedstat, in ns, not in
// ticks) from the first request sent to the last first event read, per start, beside the same burst
// answered by a bare node:http server with one event (the floor of bench agent). With BENCH_AB_DIST set
// (a second build, e.g. `cp -r dist dist-base` made at the commit to compare with), both builds run side
// by side on data of their own and take turns burst by burst, so that the machine's load falls on both.
// The model answers after `--first-ms` (1 s by default): no run reaches its model's text inside the
// window, which holds the starts and the runs' first steps, as `bench agent`'s first event does; each
// burst's answers end (and a second passes for what follows them) before the next burst.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { benchGatewayData } from './agent.ts';
import { buildGateway, mainThreadCpuNs, startGateway } from './gateway-process.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const RUNS = arg('runs', 200);
const ROUNDS = arg('rounds', 6);
const WARM = arg('warm-rounds', 3);
const FIRST_MS = arg('first-ms', 1_000);
const PEERS = new URL('./agent-peers.ts', import.meta.url).pathname;

interface Target {
  label: string;
  pid: number;
  url: string;
  session: string;
  stop(): Promise<void>;
  dataDir: string;
}

/** A peer of agent-peers.ts: the scripted model (answering after FIRST_MS with one piece) or the floor server. */
async function peer(args: string[]): Promise<{ url: string; pid: number; kill(): void }> {
  const proc = spawn(process.execPath, ['--import=tsx', PEERS, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  proc.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve) => {
    let out = '';
    proc.stdout.on('data', (d: string) => ((out += d), out.includes('\n') && resolve(out.trim())));
  });
  return { url, pid: proc.pid!, kill: () => proc.kill() };
}

async function start(label: string, dist: string, modelUrl: string): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
  const { env, session } = await benchGatewayData(dataDir, modelUrl);
  const running = await startGateway(env, { dist });
  return { label, pid: running.pid, url: running.url, session, stop: running.stop, dataDir };
}

/** Starts RUNS answers at once; resolves with the main thread's CPU (ns) up to the last first event, and when every stream has ended. */
async function burst(t: Target, prefix: string): Promise<{ cpuNs: number; wallMs: number; ended: Promise<void> }> {
  // Connections opened (and left idle) first, as bench agent's client has them; new ones for every
  // burst (a connection idle since the last could be closing at the server's keep-alive timeout).
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  await Promise.all(Array.from({ length: RUNS }, () => new Promise<void>((resolve, reject) => request(`${t.url}/api/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end())));
  const before = mainThreadCpuNs(t.pid);
  const t0 = performance.now();
  let firstEvents = 0;
  let cpuNs = 0;
  let wallMs = 0;
  let allFirst!: () => void;
  const firsts = new Promise<void>((r) => (allFirst = r));
  const streams = Array.from({ length: RUNS }, (_, i) => new Promise<void>((resolve, reject) => {
    const req = request(`${t.url}/api/agentic/stream`, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${t.session}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${t.label} answered ${res.statusCode}`));
      let seen = false;
      res.on('data', (chunk: Buffer) => {
        if (seen || !chunk.includes('event:')) return;
        seen = true;
        if (++firstEvents === RUNS) {
          cpuNs = mainThreadCpuNs(t.pid) - before;
          wallMs = performance.now() - t0;
          allFirst();
        }
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ chat_id: `${prefix}-${i}`, message: 'How many orders were placed last month?' }));
  }));
  await firsts;
  return { cpuNs, wallMs, ended: Promise.all(streams).then(() => agent.destroy()) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs the A/B and prints CPU per start for each build. */
export async function run(): Promise<void> {
  buildGateway();
  const m = await peer(['--model', JSON.stringify({ firstMs: FIRST_MS, pieces: 1, gapMs: 1 })]);
  // The floor: a bare node:http server answering the same requests with one event at once (bench agent's).
  const floor = await peer(['--floor']);
  const targets = [await start('this build (dist)', 'dist', m.url)];
  if (process.env['BENCH_AB_DIST']) targets.unshift(await start(`other build (${process.env['BENCH_AB_DIST']})`, process.env['BENCH_AB_DIST'], m.url));
  targets.push({ label: 'bare node:http server (floor)', pid: floor.pid, url: floor.url.replace(/\/floor$/, ''), session: '', stop: async () => floor.kill(), dataDir: '' });
  const results = new Map<string, number[]>(targets.map((t) => [t.label, []]));
  try {
    for (let round = 0; round < WARM + ROUNDS; round++) {
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        const b = await burst(t, `r${round}`);
        await b.ended;
        await new Promise((r) => setTimeout(r, t.dataDir ? 1000 : 100));
        if (round < WARM) continue;
        results.get(t.label)!.push(b.cpuNs / RUNS / 1000);
        console.log(`round ${round - WARM + 1} ${t.label}: ${(b.cpuNs / RUNS / 1000).toFixed(0)} µs of main-thread CPU per start, last first event after ${b.wallMs.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`);
      }
    }
    for (const [label, xs] of results) console.log(`${label}: median ${median(xs).toFixed(0)} µs per start (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}) over ${xs.length} bursts of ${RUNS}`);
  } finally {
    for (const t of targets) {
      await t.stop();
      if (t.dataDir) rmSync(t.dataDir, { recursive: true, force: true });
    }
    m.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
