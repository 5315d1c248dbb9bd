// The dbt import at scale: a generated manifest of 5,000 models with 20 columns each and 500 metrics
// imported into a fresh environment (multipart, as a CI job posts it), then re-imported unchanged.
// Compared, in the same run, with the `git` command line committing the same files into a new
// repository (`git add` and `git commit`). Goals: first import within 3x git, unchanged re-import
// under 2 s, peak memory under 300 MB. The import runs in a process of its own (import-child.ts) on
// the compiled gateway (dist, built here as `npm start` builds it) under plain node: this process only
// makes the manifest, and neither its memory nor tsx's counts. BENCH_CPU_PROF=<folder> writes the CPU
// profile of each import there (first.cpuprofile, again.cpuprofile).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { generateProject } from '../test/helpers/dbt-generated.ts';
import { buildGateway } from './gateway-process.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const MODELS = Number(process.env['BENCH_MODELS'] ?? 5000);
const GOALS = { gitRatio: 3, againMs: 2000, peakBytes: 300 * 1024 * 1024 };
const MB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
/** A figure against its goal: 0.62 means 62 % of what the goal allows. */
const ofGoal = (value: number, goal: number) => `${(value / goal).toFixed(2)} of the goal, ${value < goal ? 'met' : 'missed'}`;

interface ChildResult {
  first: { ms: number; cpuMs: number; counts: unknown };
  again: { ms: number; cpuMs: number; commit: string | null };
  git: { ms: number; files: number };
  rss: { before: number; afterFirst: number; peak: number };
}

/** Writes the generated manifest and the warehouse's relations for the child to read. */
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

/** Runs the bench and prints each figure as a ratio against its goal. */
export async function run(): Promise<void> {
  buildGateway();
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-dbt-'));
  try {
    writeProject(dir);
    const out = execFileSync(process.execPath, [writeChild(dir), dir, join(ROOT, 'dist')], { maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
    const r = JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
    const gitRatio = r.first.ms / r.git.ms;
    console.log(`first import: ${Math.round(r.first.ms)} ms, ${Math.round(r.first.cpuMs)} ms of CPU (${JSON.stringify(r.first.counts)})`);
    console.log(`git add + commit of the same ${r.git.files} files: ${Math.round(r.git.ms)} ms; import/git ${gitRatio.toFixed(2)}x (goal <= ${GOALS.gitRatio}x: ${ofGoal(gitRatio, GOALS.gitRatio)})`);
    // Wall time and CPU time against the same goal: on a loaded machine the first measures the neighbours too.
    console.log(`unchanged re-import: ${Math.round(r.again.ms)} ms wall (goal < ${GOALS.againMs} ms: ${ofGoal(r.again.ms, GOALS.againMs)}), ${Math.round(r.again.cpuMs)} ms of CPU (${ofGoal(r.again.cpuMs, GOALS.againMs)}), commit ${r.again.commit}`);
    console.log(`load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: wall times are the machine's as much as the import's`);
    console.log(`peak RSS of the importing process: ${MB(r.rss.peak)} (${MB(r.rss.before)} before the import, ${MB(r.rss.afterFirst)} after the first; goal < ${MB(GOALS.peakBytes)}: ${ofGoal(r.rss.peak, GOALS.peakBytes)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
