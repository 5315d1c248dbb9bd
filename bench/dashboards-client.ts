// The viewers of bench/dashboards.ts in a process of their own, so that the gateway's thread does
// only the gateway's work. Reads one job a line on stdin, answers one line of JSON on stdout: each
// viewer's time from opening the dashboard to its last tile's rows, and this process's CPU ms.
import { createInterface } from 'node:readline';

interface Job {
  url: string;
  tokens: string[];
  dashboardId: string;
  filters: unknown[];
  /** `tiles`: one request per tile, as the web client did; `run`: one streamed whole-dashboard run, as it does now. */
  mode: 'tiles' | 'run';
}

async function post(job: Job, token: string, path: string, body: unknown): Promise<string> {
  const res = await fetch(`${job.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/** One viewer opening the dashboard: its view, then its tiles' rows; ms to the last tile. */
async function open(job: Job, token: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${job.url}/api/dashboards/${job.dashboardId}`, { headers: { authorization: `Bearer ${token}` } });
  const d = (await res.json()) as { tiles: { id: string }[] };
  if (job.mode === 'tiles') {
    await Promise.all(d.tiles.map((t) => post(job, token, `/api/dashboards/${job.dashboardId}/tiles/${t.id}/run`, { filters: job.filters })));
  } else {
    const lines = (await post(job, token, `/api/dashboards/${job.dashboardId}/run`, { filters: job.filters })).split('\n').filter(Boolean);
    const failed = lines.map((l) => JSON.parse(l) as { status: number }).filter((l) => l.status !== 200);
    if (lines.length !== d.tiles.length || failed.length > 0) throw new Error(`run: ${lines.length} lines for ${d.tiles.length} tiles, ${failed.length} failed`);
  }
  return performance.now() - started;
}

for await (const line of createInterface({ input: process.stdin })) {
  const job = JSON.parse(line) as Job;
  const cpu = process.cpuUsage();
  const times = await Promise.all(job.tokens.map((token) => open(job, token)));
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ times, cpuMs: Math.round((used.user + used.system) / 1000) })}\n`);
}
