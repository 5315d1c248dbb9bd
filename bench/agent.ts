// 200 concurrent streamed agent runs against a scripted loopback model, beside the same requests
// made straight to the model: time to first event (p50, p99), event delivery delay, runs per second.
// Target: p99 time to first event under 100 ms, at most 20% added latency.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { memoryKnowledge } from '../src/agent/memory-ports.ts';
import { openAiProvider } from '../src/agent/providers/openai-provider.ts';
import { createOrganization, createUser, setMembership, startSession } from '../src/auth/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { listen } from '../src/server.ts';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 200);
const CHUNKS = 5;
const CHUNK_GAP_MS = 5;

/** The scripted model in its own process, so its work does not slow the measured side. */
async function modelProcess(): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, '--model-server'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url, close: () => child.kill() };
}

/** A chat completions server that streams CHUNKS text pieces, each carrying its send time. */
async function scriptedModel(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (delta: unknown, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let i = 0;
      const tick = () => {
        if (i < CHUNKS) {
          res.write(frame({ content: `${Date.now()}|` }, null));
          i++;
          setTimeout(tick, CHUNK_GAP_MS);
        } else {
          res.write(frame({}, 'stop'));
          res.end('data: [DONE]\n\n');
        }
      };
      tick();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface Sample {
  firstEvent: number;
  firstText: number;
  delays: number[];
}

/** Times of one stream: first event, first text, and the delay of each text piece since the model sent it. */
async function readTimes(started: number, chunks: AsyncIterable<string>): Promise<Sample> {
  const s: Sample = { firstEvent: NaN, firstText: NaN, delays: [] };
  for await (const text of chunks) {
    const now = performance.now() + performance.timeOrigin;
    if (Number.isNaN(s.firstEvent)) s.firstEvent = now - started;
    for (const m of text.matchAll(/(\d{13})\|/g)) {
      if (Number.isNaN(s.firstText)) s.firstText = now - started;
      s.delays.push(now - Number(m[1]));
    }
  }
  return s;
}

async function* sseText(res: Response): AsyncGenerator<string> {
  const dec = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) yield dec.decode(chunk);
}

function report(label: string, samples: Sample[], wallMs: number) {
  const first = samples.map((s) => s.firstEvent);
  const text = samples.map((s) => s.firstText);
  const delays = samples.flatMap((s) => s.delays);
  const row = {
    first_event_p50_ms: pct(first, 50).toFixed(1),
    first_event_p99_ms: pct(first, 99).toFixed(1),
    first_text_p50_ms: pct(text, 50).toFixed(1),
    first_text_p99_ms: pct(text, 99).toFixed(1),
    delivery_delay_p50_ms: pct(delays, 50).toFixed(1),
    delivery_delay_p99_ms: pct(delays, 99).toFixed(1),
    runs_per_s: (samples.length / (wallMs / 1000)).toFixed(0),
  };
  return { label, ...row };
}

/** Runs the benchmark and prints its table. */
export async function run(): Promise<void> {
  const model = await modelProcess();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_PORT: '0', SEXTANT_SEED_DEMO: 'false', SEXTANT_LOG_LEVEL: 'silent', SEXTANT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0', SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' });
  const provider = openAiProvider({ model: 'bench', apiKey: 'k', baseUrl: model.url, maxRetries: 0 });
  const app = await createApp(config, { log: createLogger('silent'), llmProvider: provider, agentPorts: () => ({ knowledge: memoryKnowledge({ tables: [] }) }) });
  const running = await listen(app, { host: '127.0.0.1', port: 0, graceMs: 1000 });
  const { db } = app.services.store;
  const clock = app.services.clock;
  createOrganization(db, clock, { id: 'bench', name: 'Bench' });
  const user = createUser(db, clock, { email: 'bench@example.com', emailVerified: true });
  setMembership(db, clock, { userId: user.id, orgId: 'bench', role: 'user' });
  const session = startSession({ db, clock, jwtKey: config.secrets.jwtKey }, user, 'bench').token;
  try {
    // Warm-up (JIT, connection pools, SQLite pages), not measured.
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${running.url}/api/agentic/stream`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` }, body: JSON.stringify({ chat_id: `warm-${i}`, message: 'q' }) });
        await res.text();
      }),
    );
    // Straight to the model: the same number of concurrent streamed requests through the SDK.
    let t = performance.now();
    const direct = await Promise.all(
      Array.from({ length: RUNS }, async () => {
        const started = performance.now() + performance.timeOrigin;
        async function* texts() {
          for await (const e of provider.stream({ system: 's', messages: [{ role: 'user', content: 'q' }], tools: [] })) if (e.type === 'text_delta') yield e.text;
        }
        return readTimes(started, texts());
      }),
    );
    const directRow = report('direct to model', direct, performance.now() - t);
    t = performance.now();
    const served = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const started = performance.now() + performance.timeOrigin;
        const res = await fetch(`${running.url}/api/agentic/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
          body: JSON.stringify({ chat_id: `bench-${i}`, message: 'q' }),
        });
        if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
        return readTimes(started, sseText(res));
      }),
    );
    const servedRow = report('through Sextant (SSE)', served, performance.now() - t);
    console.table([directRow, servedRow]);
    const added = (Number(servedRow.first_text_p50_ms) - Number(directRow.first_text_p50_ms)) / Number(directRow.first_text_p50_ms);
    console.log(`machine load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (the client, Sextant and its SDK calls share this process)`);
    console.log(`${RUNS} concurrent runs; added latency to first text (p50): ${(added * 100).toFixed(0)}%; p99 time to first event: ${servedRow.first_event_p99_ms} ms (target < 100 ms, added <= 20%)`);
  } finally {
    await running.stop();
    model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--model-server')) {
  const model = await scriptedModel();
  process.stdout.write(`${model.url}\n`);
} else if (import.meta.url === `file://${process.argv[1]}`) await run();
