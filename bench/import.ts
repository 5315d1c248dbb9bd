// The dbt import at scale: a generated manifest of 5,000 models with 20 columns each and 500 metrics
// imported into a fresh environment (multipart, as a CI job posts it), then re-imported unchanged.
// Compared, in the same run, with the `git` command line committing the same files into a new
// repository (`git add` and `git commit`). Goals: first import within 3x git, unchanged re-import
// under 2 s, peak memory under 300 MB.
//
// The gateway runs in a process of its own (import-child.ts) on the compiled build (dist, built here as
// `npm start` builds it) under plain node, started a second time on its data folder as a host restarts
// it (the first start, which seeds the demo organization's DuckDB warehouse, is a process before it).
// This process posts the artifacts, as a CI job does from its own machine, and reads the gateway's
// memory and CPU time from /proc: its peak RSS (VmHWM) is the gateway's start, sign-in and both
// imports, and nothing of the client's. BENCH_CPU_PROF=<folder> writes the gateway's CPU profile there.
// BENCH_DIST=<folder> runs another build's dist instead of building this one (an A/B of two builds).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { generateProject } from '../test/helpers/dbt-generated.ts';
import { buildGateway, cpuMsOf, rssOf } from './gateway-process.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const MODELS = Number(process.env['BENCH_MODELS'] ?? 5000);
const DIST = process.env['BENCH_DIST'] ?? join(ROOT, 'dist');
const GOALS = { gitRatio: 3, againMs: 2000, peakBytes: 300 * 1024 * 1024 };
const MB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
/** A figure against its goal: 0.62 means 62 % of what the goal allows. */
const ofGoal = (value: number, goal: number) => `${(value / goal).toFixed(2)} of the goal, ${value < goal ? 'met' : 'missed'}`;

/** Writes the generated manifest and the warehouse's relations for the gateway to read. */
function writeProject(dir: string): void {
  const started = performance.now();
  const { manifest, relations } = generateProject({ models: MODELS, columns: 20, metrics: 500 });
  const text = JSON.stringify(manifest);
  writeFileSync(join(dir, 'manifest.json'), text);
  writeFileSync(join(dir, 'relations.json'), JSON.stringify(relations));
  console.log(`manifest: ${MODELS} models x 20 columns, 500 metrics, ${Math.round(text.length / 1e6)} MB, generated in ${Math.round(performance.now() - started)} ms`);
}

/** The child as plain JavaScript: its types stripped (it imports only types from src, its code from dist). */
function writeChild(dir: string): string {
  const source = readFileSync(new URL('./import-child.ts', import.meta.url), 'utf8');
  const path = join(dir, 'import-child.mjs');
  writeFileSync(path, transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code);
  return path;
}

/** Starts the gateway process on `dataDir`; with `seed`, waits for it to seed the data folder and stop. */
async function startChild(child: string, dir: string, dataDir: string, seed = false) {
  const profile = process.env['BENCH_CPU_PROF'];
  const nodeArgs = profile && !seed ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const proc = spawn(process.execPath, [...nodeArgs, child, dir, DIST, dataDir, ...(seed ? ['seed'] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (seed) {
    proc.stdin.end();
    if ((await exited) !== 0) throw new Error('the seeding start failed');
    return undefined;
  }
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    void exited.then((code) => reject(new Error(`the gateway exited with ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return { pid: proc.pid!, url, stop: async () => void (proc.stdin.end(), await exited) };
}

/** Signs in as the demo organization's admin (the demo seed made it) and returns a bearer token. */
async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.sextant.local', password: 'demo-admin-password' }) });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Posts the manifest as a file part; the wall time, and the gateway's CPU time meanwhile (from /proc, 10 ms ticks). */
async function post(gateway: { pid: number; url: string }, token: string, manifestPath: string, envId?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  if (envId) form.append('environment_id', envId);
  form.append('manifest', await openAsBlob(manifestPath), 'manifest.json');
  const cpu = cpuMsOf(gateway.pid);
  const started = performance.now();
  const res = await fetch(`${gateway.url}/api/import/dbt`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { environment_id: string; commit: string | null; counts: unknown };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  const after = cpuMsOf(gateway.pid);
  // CPU time too: on a machine shared with other work, wall time says more about the neighbours.
  return { ms, cpuMs: after.user + after.system - cpu.user - cpu.system, body };
}

/** Milliseconds git takes to add and commit the environment's files into a new repository. */
function gitBaseline(gitdir: string, branch: string): { ms: number; files: number } {
  const work = mkdtempSync(join(tmpdir(), 'sextant-bench-git-'));
  try {
    execFileSync('git', ['--git-dir', gitdir, '--work-tree', work, 'checkout', branch, '--', '.']);
    const files = execFileSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', branch]).toString().trim().split('\n').length;
    execFileSync('git', ['init', '-q', '-b', 'main', work]);
    const started = performance.now();
    execFileSync('git', ['-C', work, 'add', '-A']);
    execFileSync('git', ['-C', work, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'import']);
    return { ms: performance.now() - started, files };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Both imports on a started gateway, and git on the files the first wrote. */
async function measure(gateway: { pid: number; url: string }, dir: string, dataDir: string) {
  const token = await signIn(gateway.url);
  const before = rssOf(gateway.pid).rss;
  const first = await post(gateway, token, join(dir, 'manifest.json'));
  const afterFirst = rssOf(gateway.pid).hwm;
  const again = await post(gateway, token, join(dir, 'manifest.json'), first.body.environment_id);
  const peak = rssOf(gateway.pid).hwm;
  const repo = readdirSync(join(dataDir, 'knowledge')).find((f) => f.endsWith('.git'))!;
  const git = gitBaseline(join(dataDir, 'knowledge', repo), `env/${first.body.environment_id}`);
  return { first, again, git, rss: { before, afterFirst, peak } };
}

/** Runs the bench and prints each figure as a ratio against its goal. */
export async function run(): Promise<void> {
  if (!process.env['BENCH_DIST']) buildGateway();
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-dbt-'));
  const dataDir = join(dir, 'data');
  try {
    writeProject(dir);
    const child = writeChild(dir);
    await startChild(child, dir, dataDir, true);
    const gateway = (await startChild(child, dir, dataDir))!;
    const r = await measure(gateway, dir, dataDir).finally(() => gateway.stop());
    const gitRatio = r.first.ms / r.git.ms;
    console.log(`first import: ${Math.round(r.first.ms)} ms, ${Math.round(r.first.cpuMs)} ms of the gateway's CPU (${JSON.stringify(r.first.body.counts)})`);
    console.log(`git add + commit of the same ${r.git.files} files: ${Math.round(r.git.ms)} ms; import/git ${gitRatio.toFixed(2)}x (goal <= ${GOALS.gitRatio}x: ${ofGoal(gitRatio, GOALS.gitRatio)})`);
    // Wall time and CPU time against the same goal: on a loaded machine the first measures the neighbours too.
    console.log(`unchanged re-import: ${Math.round(r.again.ms)} ms wall (goal < ${GOALS.againMs} ms: ${ofGoal(r.again.ms, GOALS.againMs)}), ${Math.round(r.again.cpuMs)} ms of CPU (${ofGoal(r.again.cpuMs, GOALS.againMs)}), commit ${r.again.body.commit}`);
    console.log(`load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: wall times are the machine's as much as the import's`);
    console.log(`peak RSS of the gateway process that imports: ${MB(r.rss.peak)} (${MB(r.rss.before)} before the import, ${MB(r.rss.afterFirst)} after the first; goal < ${MB(GOALS.peakBytes)}: ${ofGoal(r.rss.peak, GOALS.peakBytes)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
