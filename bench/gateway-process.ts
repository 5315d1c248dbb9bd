// The gateway as `npm start` runs it, for benchmarks: the compiled build in a process of its own, so
// that neither the benchmark's own work nor tsx counts as the gateway's time or memory.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

// The tests' helper: a port free on loopback now.
export { freePort } from '../test/helpers/app.ts';

const ROOT = new URL('..', import.meta.url).pathname;

/** Builds dist as `npm start` does. */
export function buildGateway(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (process.env['BENCH_GATEWAY_ENTRY'] === 'files') {
    const script = "import { compileEach } from './src/distribution/compile.ts'; await compileEach(['src/main.ts'], { outbase: 'src', outdir: 'tmp/main-files' });";
    execFileSync(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: 'inherit' });
    renameSync(join(ROOT, 'tmp/main-files/main.js'), join(ROOT, 'dist/main-files.js'));
  }
}

/** A process's current and peak RSS in bytes, from /proc (Linux). */
export function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU time (ns) a process's main thread (its event loop) has run so far, from /proc's schedstat (Linux; not in ticks). */
export function mainThreadCpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** CPU time (ms) a process has used so far in user space and in the kernel, from /proc (Linux; ticks of 10 ms). */
export function cpuMsOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** Fields of /proc/<pid>/stat after the command name, or undefined once the process is gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU time (ms) of a process and every process below it (the gateway's warehouse query processes), so
 * far: their user and kernel time, and that of the children they have already reaped.
 */
export function treeCpuMsOf(pid: number): number {
  const parents = new Map<number, number>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const f = statFields(entry);
    if (!f) continue;
    parents.set(Number(entry), Number(f[1]));
    times.set(Number(entry), (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10);
  }
  const inTree = (p: number): boolean => p === pid || (parents.has(p) && p > 1 && inTree(parents.get(p)!));
  let ms = 0;
  for (const [p, t] of times) if (inTree(p)) ms += t;
  return ms;
}

/** Starts `node dist/main.js` with `env` and resolves once it answers /api/health. */
export async function startGateway(env: Record<string, string> & { SEXTANT_PORT: string }, { dist = process.env['BENCH_GATEWAY_DIST'] ?? 'dist' }: { dist?: string } = {}): Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const url = `http://127.0.0.1:${env.SEXTANT_PORT}`;
  // BENCH_GATEWAY_DIST runs another build (a copy of dist made at another commit) in the benches that
  // start one gateway. BENCH_GATEWAY_NODE_ARGS are given to the gateway's node only (`--cpu-prof` to profile it, `--trace-gc`
  // with BENCH_GATEWAY_STDOUT=1 to see its output).
  const nodeArgs = (process.env['BENCH_GATEWAY_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  // BENCH_GATEWAY_ENTRY=files runs the per-file build of the entry (dist/main-files.js, built by
  // buildGateway then) instead of the bundle: a profile then names each function by its own file and line.
  const entry = join(dist, process.env['BENCH_GATEWAY_ENTRY'] === 'files' ? 'main-files.js' : 'main.js');
  const proc = spawn(process.execPath, [...nodeArgs, join(ROOT, entry)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', process.env['BENCH_GATEWAY_STDOUT'] ? 'inherit' : 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  // Asked every 10 ms: the start is timed to the answer (idle-memory.ts), and polling every 100 ms added
  // up to 100 ms to it; a refused connection costs the starting gateway nothing.
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`the gateway exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 3000) throw new Error('the gateway did not start within 30 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    pid: proc.pid!,
    url,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

