// Closed-loop load over the processes of one installation: `connections` workers, each sending its
// next request as soon as the last is answered, to the next process in turn (round-robin per
// request, as a load balancer without stickiness spreads them). Every response is read to its end,
// so a streamed answer counts from the request to its last event.
import { Agent, request } from 'node:http';

export interface Load {
  method?: 'GET' | 'POST';
  /** The path, or a function giving each request its own (a new chat per streamed answer). */
  path: string | (() => string);
  headers: Record<string, string>;
  body?: () => string;
  /** Whether a finished response is a success (default: status 200). */
  ok?: (status: number, text: string) => boolean;
}

/** What one stretch of load gave; stretches of the same installation add up (`summarize`). */
export interface LoadRun {
  /** Latencies of the successful requests, ms. */
  okMs: number[];
  errors: number;
  seconds: number;
  /** What the first failed response said, to tell a refusal from a slow server. */
  firstError?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  firstError?: string;
}

interface Sample {
  ms: number;
  error?: string;
}

/** One request to `base`, read to its end. */
function send(base: string, agent: Agent, load: Load): Promise<Sample> {
  const path = typeof load.path === 'string' ? load.path : load.path();
  const body = load.body?.();
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method: load.method ?? 'GET', agent, headers: body === undefined ? load.headers : { 'content-type': 'application/json', ...load.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.once('end', () => {
        const ok = (load.ok ?? ((s) => s === 200))(res.statusCode ?? 0, text);
        resolve({ ms: performance.now() - started, ...(ok ? {} : { error: `${res.statusCode} ${text.slice(0, 300)}` }) });
      });
      res.once('error', (err) => resolve({ ms: performance.now() - started, error: err.message }));
    });
    req.once('error', (err) => resolve({ ms: performance.now() - started, error: err.message }));
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN);

/** Loads `urls` (the processes of one installation) with `load` for `seconds`, or until `requests` were sent. */
export async function closedLoop(urls: string[], load: Load, opts: { connections: number; seconds?: number; requests?: number }): Promise<LoadRun> {
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: opts.connections }));
  const samples: Sample[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = started + (opts.seconds ?? Infinity) * 1000;
  const limit = opts.requests ?? Infinity;
  const worker = async () => {
    while (performance.now() < deadline && next < limit) {
      const i = next++ % urls.length;
      samples.push(await send(urls[i]!, agents[i]!, load));
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();
  const firstError = samples.find((s) => s.error !== undefined)?.error;
  const okMs = samples.filter((s) => s.error === undefined).map((s) => s.ms);
  return { okMs, errors: samples.length - okMs.length, seconds, ...(firstError ? { firstError } : {}) };
}

/** Throughput and latency over stretches of load on one installation. */
export function summarize(runs: LoadRun[]): LoadResult {
  const ms = runs.flatMap((r) => r.okMs).sort((a, b) => a - b);
  const errors = runs.reduce((n, r) => n + r.errors, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const firstError = runs.find((r) => r.firstError)?.firstError;
  return { requests: ms.length + errors, errors, rps: ms.length / seconds, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), ...(firstError ? { firstError } : {}) };
}
