// kill -9 of a process in the middle of a commit whose blobs go into one pack (fixtures/pack-writer.ts):
// wherever it dies, the branch is as before, git fsck --full finds the repository whole, the start-up
// check passes, and the same commit made again afterwards succeeds.
import test from 'ava';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FsClient } from 'isomorphic-git';
import { checkRepo, commitChanges, loopFs, openRepo, readFile } from '../../src/git/index.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };
const serviceFs = loopFs() as unknown as FsClient;
const child = new URL('./fixtures/pack-writer.ts', import.meta.url).pathname;
const tip = (gitdir: string, branch: string) => execFileSync('git', ['--git-dir', gitdir, 'rev-parse', branch], { encoding: 'utf8' }).trim();
const packDir = (gitdir: string) => join(gitdir, 'objects', 'pack');
const packNames = (gitdir: string) => (fs.existsSync(packDir(gitdir)) ? fs.readdirSync(packDir(gitdir)).sort() : []);

function fsck(gitdir: string): { status: number | null; out: string } {
  const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

/** Runs the child until it says it stopped where `at` says, then kills it with SIGKILL. */
async function killAt(gitdir: string, at: string): Promise<void> {
  const proc = spawn(process.execPath, [...nodeEntry(child), gitdir, at], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`the writer exited with ${code} before stopping`)));
  });
  proc.kill('SIGKILL');
  await exited;
  if (JSON.parse(line).at !== at) throw new Error(`the writer stopped at ${line}`);
}

for (const [at, left] of [
  ['building', 'nothing: the blobs were only in memory'],
  ['pack', 'the pack as a temporary file'],
  ['idx', 'a pack without its index'],
  ['ref', 'a pack and its index that no branch reaches'],
] as const) {
  test(`killed with ${at === 'building' ? 'the blobs still being added' : `the ${at} not yet renamed into place`}, the branch is as before and the repository whole (${left})`, async (t) => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-pack-crash-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const gitdir = join(dir, 'org.git');
    const repo = await openRepo({ fs: serviceFs, gitdir });
    await commitChanges({ repo, branch: 'main', author, message: 'first', changes: [{ path: 'notes/n.yaml', content: 'title: N\n' }] });
    await commitChanges({ repo, branch: 'env', startPoint: 'main', author, message: 'env', changes: [{ path: 'notes/e.yaml', content: 'title: E\n' }] });
    const before = tip(gitdir, 'env');

    await killAt(gitdir, at);
    t.is(tip(gitdir, 'env'), before);
    t.deepEqual(fsck(gitdir), { status: 0, out: '' });
    const leftover = packNames(gitdir);
    if (at === 'building') t.deepEqual(leftover, []);
    if (at === 'pack') t.true(leftover.length === 1 && leftover[0]!.startsWith('tmp_'));
    if (at === 'idx') t.deepEqual(leftover.map((f) => f.replace(/^pack-[0-9a-f]{40}/, 'pack-*').replace(/^tmp_.*/, 'tmp_*')), ['pack-*.pack', 'tmp_*']);
    if (at === 'ref') t.is(leftover.filter((f) => /^pack-[0-9a-f]{40}\.(pack|idx)$/.test(f)).length, 2);

    // The start-up check passes and removes a temporary file: packs are written under the repository's lock, which it holds.
    const reopened = await openRepo({ fs: serviceFs, gitdir });
    const temporary = packNames(gitdir).filter((f) => f.startsWith('tmp_'));
    const check = await checkRepo({ repo: reopened, repair: true });
    t.true(check.ok);
    t.deepEqual(check.removed.filter((f) => f.startsWith('objects/pack/')), temporary.map((f) => `objects/pack/${f}`));
    t.deepEqual(packNames(gitdir).filter((f) => f.startsWith('tmp_')), []);

    // The same commit again succeeds and is whole.
    await commitChanges({
      repo: reopened,
      branch: 'env',
      author,
      message: 'import again',
      changes: async (_p, blobs) => Promise.all(Array.from({ length: 200 }, async (_, i) => ({ path: `tables/wh/t${i}.yaml`, oid: await blobs.writeBlob(`name: t${i}\n`) }))),
    });
    t.is(await readFile({ repo: reopened, ref: 'env', path: 'tables/wh/t199.yaml' }), 'name: t199\n');
    t.is(await readFile({ repo: reopened, ref: 'env', path: 'notes/e.yaml' }), 'title: E\n');
    t.deepEqual(fsck(gitdir), { status: 0, out: '' });
  });
}
