// The process bench/import.ts measures: a gateway that imports the manifest the bench wrote (a file
// part, as a CI job posts it), then imports it again unchanged, then has `git` commit the same files.
// It starts with nothing of the manifest in memory, so its peak RSS (VmHWM) is the gateway's and the
// import's own. Prints one JSON line for the bench to read. With BENCH_CPU_PROF=<folder> each import's
// CPU profile is written there (first.cpuprofile, again.cpuprofile), the gateway's start left out.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../test/helpers/app.ts';
import type { WarehouseRelation } from '../src/imports/dbt/index.ts';
import { rssOf } from './gateway-process.ts';

async function post(t: TestApp, token: string, manifestPath: string, envId?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  if (envId) form.append('environment_id', envId);
  // A Blob backed by the file: the client side does not hold the manifest either.
  form.append('manifest', await openAsBlob(manifestPath), 'manifest.json');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const res = await t.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { environment_id: string; commit: string | null; counts: unknown };
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  // CPU time too: on a machine shared with other work, wall time says more about the neighbours.
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, body };
}

/** Runs `work`, profiled into `<BENCH_CPU_PROF>/<name>.cpuprofile` when that folder is given. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env['BENCH_CPU_PROF'];
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
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

const dir = process.argv[2];
if (!dir) throw new Error('usage: import-child.ts <folder with manifest.json and relations.json>');
const relations = JSON.parse(readFileSync(join(dir, 'relations.json'), 'utf8')) as WarehouseRelation[];
const t = await startTestApp({ SEXTANT_UPLOAD_LIMIT: String(500 * 1024 * 1024) });
try {
  t.org('bench-org');
  const token = t.session(t.user({ orgId: 'bench-org', role: 'admin' }));
  // The warehouse's side answers from memory: this measures the import, not a warehouse's introspection.
  t.app.services.imports.warehouse = { relationsOf: async () => ({ dialect: 'postgresql', relations }) };
  const before = rssOf(process.pid).rss;
  const first = await profiled('first', () => post(t, token, join(dir, 'manifest.json')));
  const again = await profiled('again', () => post(t, token, join(dir, 'manifest.json'), first.body.environment_id));
  const peak = rssOf(process.pid).hwm;
  const git = gitBaseline(join(t.config.dataDir, 'knowledge', 'bench-org.git'), `env/${first.body.environment_id}`);
  console.log(JSON.stringify({ first: { ms: first.ms, cpuMs: first.cpuMs, counts: first.body.counts }, again: { ms: again.ms, cpuMs: again.cpuMs, commit: again.body.commit }, git, rss: { before, peak } }));
} finally {
  await t.stop();
}
