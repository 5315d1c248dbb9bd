// What a test file pays before its first test (issue 38, the suite's time): ava runs each test file
// in a process of its own, and each loads the harness (test/helpers/app.ts: the whole service). This
// loads it in fresh processes from the sources through tsx (as `npx ava test/x.test.ts` does) and
// from the suite's compiled mirror (as `npm test` does), alternating, and prints the CPU time per
// load and the compiled load as a share of the tsx one. CPU time, not wall time: it is what the
// suite's ~330 processes add up to on the 2 cores, and less sensitive to other work on the machine.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildMirror, ROOT } from '../test/helpers/suite-mirror.ts';

const ROUNDS = Number(process.env['BENCH_TEST_LOAD_ROUNDS'] ?? 5);

/** CPU time (ms, user + system) of a fresh `node <args>`. */
function cpuMs(args: string[], cwd: string): number {
  const script = `const c = process.cpuUsage(); process.on('exit', () => { const u = process.cpuUsage(); console.log(((u.user + u.system) / 1000).toFixed(1)); });`;
  const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(script)}`, ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr}`);
  return Number(run.stdout.trim().split('\n').at(-1));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Loads the harness ROUNDS times each way and prints the medians. */
export async function run(): Promise<void> {
  const began = performance.now();
  const mirror = await buildMirror();
  console.log(`mirror built (every file of src, test, bench, bin and web compiled) in ${(performance.now() - began).toFixed(0)} ms`);
  try {
    const tsx: number[] = [];
    const compiled: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      tsx.push(cpuMs(['--import=tsx', '-e', "await import('./test/helpers/app.ts')"], ROOT));
      compiled.push(cpuMs(['-e', `await import(${JSON.stringify(join(mirror, 'test/helpers/app.js'))})`], mirror));
    }
    const [t, c] = [median(tsx), median(compiled)];
    console.log(`loading the test harness, CPU per process (median of ${ROUNDS}): through tsx ${t.toFixed(0)} ms, compiled ${c.toFixed(0)} ms: ${(c / t).toFixed(2)}x tsx's, ${(t - c).toFixed(0)} ms less per test file`);
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    rmSync(mirror, { recursive: true, force: true });
  }
}
