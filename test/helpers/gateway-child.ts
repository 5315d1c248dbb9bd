// The gateway as a process of its own (src/main.ts as node-entry.ts runs it), for tests that kill it with SIGKILL
// and start it again on the same data folder. Its JSON log lines are read as they come, so a test
// waits on what the service says it did instead of sleeping.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort } from './app.ts';
import { nodeEntry } from './node-entry.ts';

export interface GatewayChild {
  url: string;
  proc: ChildProcess;
  /** Resolves with the first log line (past or future) matching `test`. */
  waitForLog(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** SIGKILL: no shutdown step runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

const ROOT = new URL('../..', import.meta.url).pathname;

/** Starts src/main.ts with `env` and resolves once it listens. */
export async function startGatewayChild(env: Record<string, string>): Promise<GatewayChild> {
  const port = await freePort();
  const proc = spawn(process.execPath, nodeEntry('src/main.ts'), {
    cwd: ROOT,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], SEXTANT_PORT: String(port), SEXTANT_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { test: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const waitForLog = (test: (l: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = lines.find(test);
      if (seen) return resolve(seen);
      waiters.push({ test, resolve });
      void exited.then(() => reject(new Error(`the gateway exited before the awaited log line\n${stderr}`)));
    });
  await waitForLog((l) => l['msg'] === 'Sextant is listening');
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    waitForLog,
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
