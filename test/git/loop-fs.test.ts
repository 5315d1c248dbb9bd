// The repository file system of the service (loop-fs.ts): a write takes a few turns of the event loop
// instead of one per file system call, large files and failures behave as node:fs's, and an fsync is
// still made and awaited.
import test from 'ava';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FsClient } from 'isomorphic-git';
import { commitChanges, loopFs, openRepo, readFile } from '../../src/git/index.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-loop-fs-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Turns of the event loop (check phases) that pass while `work` runs. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return turns;
}

async function turnsOfAWrite(t: { teardown(fn: () => void): void }, files: FsClient): Promise<number> {
  const repo = await openRepo({ fs: files, gitdir: join(tempDir(t), 'org.git') });
  const seed = Array.from({ length: 50 }, (_, i) => ({ path: `notes/seed-${i}.yaml`, content: `title: ${i}\n` }));
  await commitChanges({ repo, branch: 'main', author, message: 'seed', changes: seed });
  return turnsDuring(() => commitChanges({ repo, branch: 'main', author, message: 'one note', changes: [{ path: 'notes/one.yaml', content: 'title: One\n' }] }));
}

test('a knowledge write waits for a third of the event-loop turns it waits for on plain node:fs, or fewer', async (t) => {
  const plain = await turnsOfAWrite(t, fs as unknown as FsClient);
  const loop = await turnsOfAWrite(t, loopFs() as unknown as FsClient);
  t.true(loop * 3 <= plain, `${loop} turns against ${plain}`);
});

test('a file larger than what is read in the turn reads whole, and a missing file rejects with ENOENT', async (t) => {
  const dir = tempDir(t);
  const { promises } = loopFs();
  const big = Buffer.alloc(1024 * 1024, 7);
  fs.writeFileSync(join(dir, 'big'), big);
  t.deepEqual(await promises.readFile(join(dir, 'big')), big);
  t.is(await promises.readFile(join(dir, 'big'), 'utf8'), big.toString('utf8'));
  const missing = promises.stat(join(dir, 'missing'));
  await t.throwsAsync(missing, { code: 'ENOENT' });
  await t.throwsAsync(promises.readFile(join(dir, 'missing')), { code: 'ENOENT' });
  await t.throwsAsync(promises.open(join(dir, 'big'), 'wx'), { code: 'EEXIST' });
});

test('a repository written through it reads back after reopening on plain node:fs', async (t) => {
  const gitdir = join(tempDir(t), 'org.git');
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  await commitChanges({ repo, branch: 'main', author, message: 'a', changes: [{ path: 'notes/a.yaml', content: 'title: A\n' }] });
  const again = await openRepo({ fs: fs as unknown as FsClient, gitdir });
  t.is(await readFile({ repo: again, ref: 'main', path: 'notes/a.yaml' }), 'title: A\n');
});
