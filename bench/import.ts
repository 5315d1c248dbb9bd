// The dbt import at scale: a generated manifest of 5,000 models with 20 columns each and 500 metrics
// imported into a fresh environment (multipart, as a CI job posts it), then re-imported unchanged.
// Compared, in the same run, with the `git` command line committing the same files into a new
// repository (`git add` and `git commit`). Goals: first import within 3x git, unchanged re-import
// under 2 s, peak memory under 300 MB.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject } from '../test/helpers/dbt-generated.ts';
import { startTestApp } from '../test/helpers/app.ts';

const MODELS = Number(process.env['BENCH_MODELS'] ?? 5000);
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

async function post(t: Awaited<ReturnType<typeof startTestApp>>, token: string, manifestPath: string, envId?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  if (envId) form.append('environment_id', envId);
  form.append('manifest', new Blob([await (await import('node:fs/promises')).readFile(manifestPath)]), 'manifest.json');
  const started = performance.now();
  const res = await t.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { environment_id: string; commit: string | null; counts: unknown };
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  return { ms: performance.now() - started, body };
}

/** Seconds git takes to add and commit the environment's files into a new repository. */
function gitBaseline(gitdir: string, branch: string): { ms: number; files: number } {
  const work = mkdtempSync(join(tmpdir(), 'sextant-bench-git-'));
  try {
    execFileSync('git', ['--git-dir', gitdir, '--work-tree', work, 'checkout', branch, '--', '.']);
    const files = Number(execFileSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', branch]).toString().trim().split('\n').length);
    execFileSync('git', ['init', '-q', '-b', 'main', work]);
    const started = performance.now();
    execFileSync('git', ['-C', work, 'add', '-A']);
    execFileSync('git', ['-C', work, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'import']);
    return { ms: performance.now() - started, files };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Writes the generated manifest and returns the relations; the manifest object is not kept, so peak memory is the import's. */
function writeManifest(path: string) {
  const generated = performance.now();
  const { manifest, relations } = generateProject({ models: MODELS, columns: 20, metrics: 500 });
  const text = JSON.stringify(manifest);
  writeFileSync(path, text);
  console.log(`manifest: ${MODELS} models x 20 columns, 500 metrics, ${Math.round(text.length / 1e6)} MB, generated in ${Math.round(performance.now() - generated)} ms`);
  return relations;
}

/** Runs the bench and prints its numbers. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-dbt-'));
  const manifestPath = join(dir, 'manifest.json');
  const relations = writeManifest(manifestPath);
  const t = await startTestApp({ SEXTANT_UPLOAD_LIMIT: String(500 * 1024 * 1024) });
  try {
    t.org('bench-org');
    const token = t.session(t.user({ orgId: 'bench-org', role: 'admin' }));
    // The warehouse's side answers from memory: this measures the import, not a warehouse's introspection.
    t.app.services.imports.warehouse = { relationsOf: async () => ({ dialect: 'postgresql', relations }) };
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss / 1024;
    // Peak RSS while the import runs, sampled (the process-wide maximum would include making the manifest).
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 1024)), 10);
    const first = await post(t, token, manifestPath);
    clearInterval(sampler);
    const again = await post(t, token, manifestPath, first.body.environment_id);
    const gitdir = join(t.config.dataDir, 'knowledge', 'bench-org.git');
    const git = gitBaseline(gitdir, `env/${first.body.environment_id}`);
    console.log(`first import: ${Math.round(first.ms)} ms (${JSON.stringify(first.body.counts)})`);
    console.log(`git add + commit of the same ${git.files} files: ${Math.round(git.ms)} ms; ratio ${(first.ms / git.ms).toFixed(2)} (goal <= 3)`);
    console.log(`unchanged re-import: ${Math.round(again.ms)} ms, commit ${again.body.commit} (goal < 2000 ms)`);
    console.log(`peak RSS: ${mb(peak)} (before the import ${mb(before)}; goal < 300 MB)`);
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
