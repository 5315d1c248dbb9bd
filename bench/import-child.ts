// The process bench/import.ts measures: the compiled gateway (dist, as `npm start` runs it) imports the
// manifest the bench wrote (a file part, as a CI job posts it), then imports it again unchanged, then
// `git` commits the same files. bench/import.ts strips this file's types with esbuild and runs it with
// plain node, so no TypeScript loader sits in its memory: its peak RSS is the gateway's and the import's.
// Only types come from src; the code comes from the dist folder named on the command line. Prints one
// JSON line for the bench to read. With BENCH_CPU_PROF=<folder> each import's CPU profile is written
// there (first.cpuprofile, again.cpuprofile), the gateway's start left out.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WarehouseRelation } from '../src/imports/dbt/index.ts';

const [dir, dist] = process.argv.slice(2);
if (!dir || !dist) throw new Error('usage: import-child.js <folder with manifest.json and relations.json> <dist folder>');
const { createApp } = (await import(join(dist, 'app.js'))) as typeof import('../src/app.ts');
const { loadConfig } = (await import(join(dist, 'config.js'))) as typeof import('../src/config.ts');
const { createLogger } = (await import(join(dist, 'log.js'))) as typeof import('../src/log.ts');
const { listen } = (await import(join(dist, 'server.js'))) as typeof import('../src/server.ts');

async function post(base: string, token: string, manifestPath: string, envId?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  if (envId) form.append('environment_id', envId);
  // A Blob backed by the file: the client side does not hold the manifest either.
  form.append('manifest', await openAsBlob(manifestPath), 'manifest.json');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const res = await fetch(`${base}/api/import/dbt`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { environment_id: string; commit: string | null; counts: unknown };
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  // CPU time too: on a machine shared with other work, wall time says more about the neighbours.
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, body };
}

/** Runs `work`, profiled into `<BENCH_CPU_PROF>/<name>.cpuprofile` when that folder is given. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const folder = process.env['BENCH_CPU_PROF'];
  if (!folder) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(folder, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
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

/** Signs in as the demo organization's admin (the demo seed made it) and returns a bearer token. */
async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.sextant.local', password: 'demo-admin-password' }) });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

const relations = JSON.parse(readFileSync(join(dir, 'relations.json'), 'utf8')) as WarehouseRelation[];
const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-import-'));
// The demo seed gives an organization and its admin (and a demo warehouse, kept to its smallest).
const config = loadConfig({
  SEXTANT_DATA_DIR: dataDir,
  SEXTANT_PORT: '0',
  SEXTANT_DEMO_WAREHOUSE_ORDERS: '100',
  SEXTANT_UPLOAD_LIMIT: String(500 * 1024 * 1024),
  SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
});
const app = await createApp(config, { log: createLogger('error') });
const running = await listen(app, { host: '127.0.0.1', port: 0, graceMs: 1000 });
try {
  const token = await signIn(running.url);
  // The warehouse's side answers from memory: this measures the import, not a warehouse's introspection.
  app.services.imports.warehouse = { relationsOf: async () => ({ dialect: 'postgresql', relations }) };
  const before = process.memoryUsage().rss;
  const first = await profiled('first', () => post(running.url, token, join(dir, 'manifest.json')));
  // The peak resident set so far (VmHWM, in kB): after the first import, then after both.
  const afterFirst = process.resourceUsage().maxRSS * 1024;
  const again = await profiled('again', () => post(running.url, token, join(dir, 'manifest.json'), first.body.environment_id));
  const peak = process.resourceUsage().maxRSS * 1024;
  const repo = readdirSync(join(dataDir, 'knowledge')).find((f) => f.endsWith('.git'))!;
  const git = gitBaseline(join(dataDir, 'knowledge', repo), `env/${first.body.environment_id}`);
  console.log(JSON.stringify({ first: { ms: first.ms, cpuMs: first.cpuMs, counts: first.body.counts }, again: { ms: again.ms, cpuMs: again.cpuMs, commit: again.body.commit }, git, rss: { before, afterFirst, peak } }));
} finally {
  await running.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
