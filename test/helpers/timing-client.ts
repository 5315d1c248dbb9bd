// A client in a process of its own, as an attacker timing the service would be: posts a JSON body for
// each known address paired with one for an unknown address (the order alternating per pair, so drift
// and any work left behind by one request fall on both sides alike) and prints the paired latencies.
// Run with a job as the first argument: { url, path, field, known: string[], unknown: string[], warm }.
import { spawn } from 'node:child_process';
import { nodeEntry } from './node-entry.ts';

export interface TimingJob {
  url: string;
  path: string;
  field: string;
  known: string[];
  unknown: string[];
  warm: number;
}

/** Runs the job in a child process; resolves with (known - unknown) per pair and every latency, in ms. */
export function timePairs(job: TimingJob): Promise<{ diffs: number[]; all: number[] }> {
  const proc = spawn(process.execPath, [...nodeEntry(new URL(import.meta.url).pathname), JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { diffs: number[]; all: number[] }) : reject(new Error(`timing client exited with ${code}`))));
  });
}

async function run(job: TimingJob): Promise<void> {
  const post = async (value: string) => {
    const started = performance.now();
    const res = await fetch(job.url + job.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [job.field]: value }) });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${job.path} answered ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < job.warm; i++) await post(`warm-up-${i}@example.org`);
  const diffs: number[] = [];
  const all: number[] = [];
  for (const [i, known] of job.known.entries()) {
    const unknown = job.unknown[i]!;
    const [k, u] = i % 2 === 0 ? [await post(known), await post(unknown)] : (([u1, k1]) => [k1, u1])([await post(unknown), await post(known)]);
    diffs.push(k! - u!);
    all.push(k!, u!);
  }
  process.stdout.write(JSON.stringify({ diffs, all }));
}

if (process.argv[1] === new URL(import.meta.url).pathname && process.argv[2]) await run(JSON.parse(process.argv[2]) as TimingJob);
