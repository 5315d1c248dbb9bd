// A knowledge write in a crowd (issue 38): a modeler's create or update of a note in an environment,
// p50 and p99, first on a quiet gateway (the reference, measured again after the load, both halves
// pooled) and then while 4 analysts ask (each question streamed to its end over SSE, every other one a
// follow-up in the same chat) and 2 readers page their chat history and search it. Goal: the write's
// p50 under load <= 3x the quiet one; the answers' own p50 is printed beside it, so that a change
// that speeds the write at the answers' expense shows.
//
// The gateway runs as `npm start` runs it (the compiled build, the demo organization with its offline
// model) in a process of its own; the load and the writer run here. `BENCH_MIXED_SECONDS` sets the
// loaded phase (default 60 s, shorter than the 6-minute mixed load: the p50 of a write is
// what it measures, and a minute holds hundreds of them), `BENCH_MIXED_WRITES` the quiet writes per
// half (default 40).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { buildGateway, cpuMsOf, freePort, startGateway } from './gateway-process.ts';

const SECONDS = Number(process.env['BENCH_MIXED_SECONDS'] ?? 60);
const QUIET_WRITES = Number(process.env['BENCH_MIXED_WRITES'] ?? 40);
const ANALYSTS = 4;
const READERS = 2;
/** Pause between two writes of the writer: a person saving a note now and then, not a write loop. */
const WRITE_GAP_MS = 100;
const QUESTIONS = ['How many orders are there?', 'Total revenue by channel', 'Number of customers per country', 'What is the average order value?', 'How many orders by status?', 'Top 3 customers by revenue'];
const SEARCHES = ['orders', 'revenue', 'customers', 'channel'];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface Client {
  url: string;
  call(method: string, path: string, token: string, body?: unknown, env?: string): Promise<Response>;
}

function client(url: string): Client {
  return {
    url,
    async call(method, path, token, body, env) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (env) headers['x-service-environment'] = env;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res;
    },
  };
}

async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The writer: creates a note, then updates it, alternately; ms per write. */
function writer(c: Client, token: string, env: string) {
  let n = 0;
  return async (): Promise<number> => {
    const k = n++;
    const id = `mixed-${Math.floor(k / 2)}`;
    const body = { title: `Note ${id}`, body: `Version ${k} of a note written while others ask.` };
    const started = performance.now();
    const res = k % 2 === 0 ? await c.call('POST', `/api/knowledge/notes?id=${id}`, token, body, env) : await c.call('PUT', `/api/knowledge/notes/${id}`, token, body, env);
    await res.arrayBuffer();
    return performance.now() - started;
  };
}

/** One question streamed to its `completed` event; ms to the end. */
async function ask(c: Client, token: string, chatId: string, message: string): Promise<number> {
  const started = performance.now();
  const res = await c.call('POST', '/api/agentic/stream', token, { chat_id: chatId, message });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || value.event === 'completed') break;
  }
  await reader.cancel();
  return performance.now() - started;
}

/** Loops until `until`: an analyst (questions, every other one a follow-up) or a reader (history pages and searches). */
async function analyst(c: Client, token: string, who: number, until: () => boolean, answers: number[]): Promise<void> {
  for (let q = 0; !until(); q++) answers.push(await ask(c, token, `mixed-a${who}-${Math.floor(q / 2)}`, QUESTIONS[(q + who) % QUESTIONS.length]!));
}

async function reader(c: Client, token: string, who: number, until: () => boolean, reads: number[]): Promise<void> {
  for (let r = 0; !until(); r++) {
    const started = performance.now();
    const path = r % 2 === 0 ? '/api/chat_history?limit=40' : `/api/search_chats?q=${SEARCHES[(r + who) % SEARCHES.length]}`;
    await (await c.call('GET', path, token)).arrayBuffer();
    reads.push(performance.now() - started);
  }
}

async function quietWrites(write: () => Promise<number>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < QUIET_WRITES; i++) ms.push(await write());
  return ms;
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  buildGateway();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-mixed-'));
  const gateway = await startGateway({ SEXTANT_PORT: String(await freePort()), SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'warn' });
  try {
    const c = client(gateway.url);
    const analystToken = await signIn(gateway.url, 'analyst@demo.sextant.local', 'demo-analyst-password');
    const modeler = await signIn(gateway.url, 'modeler@demo.sextant.local', 'demo-modeler-password');
    const env = ((await (await c.call('POST', '/api/environments', modeler, { name: 'Mixed load', color: '#1e88e5' })).json()) as { id: string }).id;
    const write = writer(c, modeler, env);
    // Warm-up: JIT, the environment's first reads, a first answer.
    for (let i = 0; i < 10; i++) await write();
    await ask(c, analystToken, 'mixed-warm', QUESTIONS[0]!);
    const quiet = await quietWrites(write);

    const end = performance.now() + SECONDS * 1000;
    const until = () => performance.now() >= end;
    const answers: number[] = [];
    const reads: number[] = [];
    const loaded: number[] = [];
    const cpuBefore = cpuMsOf(gateway.pid);
    const load = [
      ...Array.from({ length: ANALYSTS }, (_, i) => analyst(c, analystToken, i, until, answers)),
      ...Array.from({ length: READERS }, (_, i) => reader(c, analystToken, i, until, reads)),
    ];
    // The writer starts once the load is under way, and stops before it ends.
    await new Promise((r) => setTimeout(r, 2000));
    while (performance.now() < end - 1000) {
      loaded.push(await write());
      await new Promise((r) => setTimeout(r, WRITE_GAP_MS));
    }
    await Promise.all(load);
    const cpuAfter = cpuMsOf(gateway.pid);
    quiet.push(...(await quietWrites(write)));

    const q50 = pct(quiet, 50);
    const l50 = pct(loaded, 50);
    const busy = ((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / (SECONDS * 1000)) * 100;
    console.table([
      { figure: 'knowledge write, quiet', n: quiet.length, p50_ms: q50, p99_ms: pct(quiet, 99) },
      { figure: 'knowledge write, under load', n: loaded.length, p50_ms: l50, p99_ms: pct(loaded, 99) },
      { figure: `answers (${ANALYSTS} analysts, to completed)`, n: answers.length, p50_ms: pct(answers, 50), p99_ms: pct(answers, 99) },
      { figure: `history and search (${READERS} readers)`, n: reads.length, p50_ms: pct(reads, 50), p99_ms: pct(reads, 99) },
    ].map((r) => ({ ...r, p50_ms: Number(r.p50_ms.toFixed(1)), p99_ms: Number(r.p99_ms.toFixed(1)) })));
    console.log(`write under load, p50: ${(l50 / q50).toFixed(2)}x the quiet write (goal <= 3x); ${SECONDS} s of load, the gateway busy ${busy.toFixed(0)} % of one core; machine load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
