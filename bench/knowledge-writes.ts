// Knowledge write latency before and after crash-safe writes (fsync of objects and refs, lock file,
// reflog, read-back). The git adapter of a reference commit (default `main`, or `--ref=<commit>`) is
// extracted next to node_modules and timed in the same run against this checkout's, on identical
// repositories (1,000 files), alternating batches so both see the same machine load. Each sample is
// one knowledge write as the service makes it: one changed file committed to a branch. Goal: p99 at
// most 1.5x the reference's.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FsClient } from 'isomorphic-git';

const BATCHES = 20;
const PER_BATCH = 30;
const SEED_FILES = 1000;
const author = { name: 'Bench', email: 'bench@example.com', timestamp: 1_700_000_000 };

type GitModule = typeof import('../src/git/index.ts');

/** This checkout's adapter, and the reference commit's extracted beside node_modules (so its imports resolve). */
async function adapters(ref: string): Promise<{ name: string; git: GitModule }[]> {
  const root = new URL('..', import.meta.url).pathname;
  const dir = join(root, 'node_modules', '.cache', `sextant-bench-git-${process.pid}`);
  fs.mkdirSync(join(dir, 'src', 'git'), { recursive: true });
  for (const file of ['src/errors.ts', ...execFileSync('git', ['ls-tree', '--name-only', `${ref}:src/git`], { cwd: root, encoding: 'utf8' }).trim().split('\n').map((f) => `src/git/${f}`)]) {
    fs.writeFileSync(join(dir, file), execFileSync('git', ['show', `${ref}:${file}`], { cwd: root }));
  }
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return [
    { name: ref, git: (await import(pathToFileURL(join(dir, 'src', 'git', 'index.ts')).href)) as GitModule },
    { name: 'this checkout', git: await import('../src/git/index.ts') },
  ];
}

async function seededRepo(git: GitModule, dir: string) {
  const repo = await git.openRepo({ fs: fs as unknown as FsClient, gitdir: join(dir, 'org.git') });
  const changes = Array.from({ length: SEED_FILES }, (_, i) => ({ path: `notes/seed-${i}.yaml`, content: `title: Seed ${i}\nbody: text\n` }));
  await git.commitChanges({ repo, branch: 'main', author, message: 'seed', changes });
  return repo;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

export async function run(): Promise<void> {
  const ref = process.argv.find((a) => a.startsWith('--ref='))?.slice(6) ?? 'main';
  const list = await adapters(ref);
  const work = fs.mkdtempSync(join(tmpdir(), 'sextant-bench-writes-'));
  const repos = await Promise.all(list.map(async (a, i) => ({ ...a, repo: await seededRepo(a.git, fs.mkdtempSync(join(work, `r${i}-`))), samples: [] as number[] })));
  let n = 0;
  for (let b = 0; b < BATCHES; b++) {
    for (const r of b % 2 === 0 ? repos : [...repos].reverse()) {
      for (let i = 0; i < PER_BATCH; i++) {
        const k = n++;
        const t = performance.now();
        await r.git.commitChanges({ repo: r.repo as never, branch: 'main', author, message: `write ${k}`, changes: [{ path: `notes/item-${k}.yaml`, content: `title: Item ${k}\nbody: version ${k}\n` }] });
        r.samples.push(performance.now() - t);
      }
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  const rows = repos.map((r) => {
    const s = [...r.samples].sort((a, b) => a - b);
    return { name: r.name, p50: pct(s, 50), p99: pct(s, 99) };
  });
  for (const r of rows) console.log(`${r.name.padEnd(14)} p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${BATCHES * PER_BATCH / 2} writes)`);
  const [before, after] = rows as [(typeof rows)[0], (typeof rows)[0]];
  console.log(`ratio after/before: p50 ${(after.p50 / before.p50).toFixed(2)}x, p99 ${(after.p99 / before.p99).toFixed(2)}x (goal: p99 at most 1.5x)`);
}
