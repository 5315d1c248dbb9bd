// The peers of the agent benchmark, each run in a process of its own so that none bills its work to
// Sextant: the scripted model (`--model`), the floor server (`--floor`), the client of Sextant's SSE
// (`--client <job as JSON>`) and the direct client (`--direct <job as JSON>`), which calls the model
// through the same provider (the official SDK) that Sextant uses, so that the comparison shows what
// Sextant adds, not what the SDK costs. Only Node built-ins load up front, so each starts in a moment.
import { Agent, createServer, globalAgent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LlmProvider } from '../src/agent/providers/types.ts';

export interface ModelProfile {
  /** Time to the first piece of text. */
  firstMs: number;
  pieces: number;
  gapMs: number;
}

export interface Job {
  url: string;
  headers: Record<string, string>;
  /** One body per request; `{i}` is replaced by the request's number. */
  body: string;
  runs: number;
  /** Requests are sent evenly over this many ms (0: all at once). */
  spreadMs: number;
  /** When set, `runs` connections are opened first (a GET here each) and the requests reuse them. */
  warmUrl?: string;
}

export interface DirectJob {
  baseUrl: string;
  runs: number;
  spreadMs: number;
  /** New connections for the measured requests instead of open ones. */
  cold: boolean;
}

export interface Sample {
  /** ms from sending the request to the first SSE event, the first piece of text, the end. */
  firstEvent: number;
  firstText: number;
  done: number;
  /** Per piece of text: ms from the model sending it to the client reading it. */
  delays: number[];
}

/** A chat completions server streaming `pieces` pieces of text, each carrying its send time. */
async function scriptedModel(profile: ModelProfile): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (delta: unknown, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let i = 0;
      const tick = () => {
        if (i++ < profile.pieces) {
          res.write(frame({ content: `${Date.now()}|` }, null));
          setTimeout(tick, profile.gapMs);
        } else {
          res.write(frame({}, 'stop'));
          res.end('data: [DONE]\n\n');
        }
      };
      setTimeout(tick, profile.firstMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** The floor: a bare node:http server that answers every request with one event at once. */
async function floorServer(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: run_started\ndata: {}\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/floor`;
}

const now = () => performance.timeOrigin + performance.now();

/** Sends one streamed request and times its frames. */
function timeOne(job: Job, i: number, agent: Agent | undefined): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = now();
    const s: Sample = { firstEvent: NaN, firstText: NaN, done: NaN, delays: [] };
    const req = request(job.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...job.headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${job.url} answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = now();
        buffer += chunk;
        const frames = buffer.split('\n\n');
        buffer = frames.pop()!;
        for (const frame of frames) {
          // An SSE event (Sextant's `event:` frames, the model's `data:` frames); comments and `retry:` are not.
          if (!/^(event|data):/m.test(frame)) continue;
          if (Number.isNaN(s.firstEvent)) s.firstEvent = at - started;
          // Pieces of text arrive in Sextant's text_delta events; `completed` repeats the whole answer.
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          if (type !== undefined && type !== 'text_delta') continue;
          for (const m of frame.matchAll(/(\d{13})\|/g)) {
            if (Number.isNaN(s.firstText)) s.firstText = at - started;
            s.delays.push(at - Number(m[1]));
          }
        }
      });
      res.on('end', () => resolve({ ...s, done: now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(job.body.replaceAll('{i}', String(i)));
  });
}

/** Streams one answer straight from the model through the provider, timing its pieces the same way. */
async function timeDirect(provider: LlmProvider): Promise<Sample> {
  const started = now();
  const s: Sample = { firstEvent: NaN, firstText: NaN, done: NaN, delays: [] };
  for await (const e of provider.stream({ system: 'You answer questions about data.', messages: [{ role: 'user', content: 'How many orders were placed last month?' }], tools: [] })) {
    const at = now();
    if (Number.isNaN(s.firstEvent)) s.firstEvent = at - started;
    if (e.type !== 'text_delta') continue;
    for (const m of e.text.matchAll(/(\d{13})\|/g)) {
      if (Number.isNaN(s.firstText)) s.firstText = at - started;
      s.delays.push(at - Number(m[1]));
    }
  }
  return { ...s, done: now() - started };
}

/** Runs `one` `runs` times, spread over `spreadMs`, and prints the samples and wall time as JSON. */
async function client(runs: number, spreadMs: number, one: (i: number) => Promise<Sample>): Promise<void> {
  const t = now();
  const gap = spreadMs / runs;
  // The client's own event-loop delay: a client too busy to read in time adds it to every figure.
  const lag = monitorEventLoopDelay({ resolution: 2 });
  lag.enable();
  const samples = await Promise.all(Array.from({ length: runs }, (_, i) => (gap === 0 ? one(i) : new Promise<Sample>((r, e) => setTimeout(() => one(i).then(r, e), i * gap)))));
  lag.disable();
  process.stdout.write(JSON.stringify({ samples, startedAt: t, wallMs: now() - t, clientLagP99Ms: lag.percentile(99) / 1e6 }));
}

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1]!;
if (process.argv.includes('--model')) process.stdout.write(`${await scriptedModel(JSON.parse(arg('--model')) as ModelProfile)}\n`);
if (process.argv.includes('--floor')) process.stdout.write(`${await floorServer()}\n`);
/**
 * `runs` connections opened and left idle in a keep-alive agent, as a client that already talks to the
 * server has them (a browser tab, the CLI): the measured requests then pay no TCP handshake.
 */
async function openConnections(url: string, runs: number): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  await Promise.all(Array.from({ length: runs }, () => new Promise<void>((resolve, reject) => request(url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end())));
  return agent;
}

if (process.argv.includes('--client')) {
  const job = JSON.parse(arg('--client')) as Job;
  const agent = job.warmUrl ? await openConnections(job.warmUrl, job.runs) : undefined;
  await client(job.runs, job.spreadMs, (i) => timeOne(job, i, agent));
  agent?.destroy();
}
if (process.argv.includes('--direct')) {
  const job = JSON.parse(arg('--direct')) as DirectJob;
  const { openAiProvider } = await import('../src/agent/providers/openai-provider.ts');
  const provider = openAiProvider({ model: 'bench', apiKey: 'k', baseUrl: job.baseUrl, maxRetries: 0 });
  // Warm-up: the SDK's first calls compile its code and open connections (as many as the measured
  // requests need, unless they are to open their own), as Sextant's warm-up does.
  await Promise.all(Array.from({ length: job.cold ? 50 : job.runs }, () => timeDirect(provider)));
  if (job.cold) globalAgent.destroy();
  await client(job.runs, job.spreadMs, () => timeDirect(provider));
}
