// The repository file system of the service (loop-fs.ts): a write waits on the thread pool a few
// times instead of once per file system call, large files and failures behave as node:fs's, and what
// it writes reads back on plain node:fs.
import test from 'ava';
import { createHook } from 'node:async_hooks';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FsClient } from 'isomorphic-git';
import { commitChanges, createFileLock, loopFs, openRepo, readFile, type SharedLock } from '../../src/git/index.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-loop-fs-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Requests to libuv's thread pool (file system calls, crypto.subtle digests) made while `work` runs:
 * each settles in a later turn of the event loop, which a busy gateway makes long. Counted rather than
 * timed, so that the disk's speed does not enter.
 */
async function poolRequestsDuring(work: () => Promise<unknown>, types = ['FSREQCALLBACK', 'FSREQPROMISE', 'HASHREQUEST']): Promise<number> {
  let requests = 0;
  const hook = createHook({
    init(_id, type) {
      if (types.includes(type)) requests++;
    },
  });
  hook.enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return requests;
}

async function poolRequestsOfAWrite(t: { teardown(fn: () => void): void }, files: FsClient, shared?: SharedLock, types?: string[]): Promise<number> {
  const repo = await openRepo({ fs: files, gitdir: join(tempDir(t), 'org.git'), shared });
  const seed = Array.from({ length: 50 }, (_, i) => ({ path: `notes/seed-${i}.yaml`, content: `title: ${i}\n` }));
  await commitChanges({ repo, branch: 'main', author, message: 'seed', changes: seed });
  return poolRequestsDuring(() => commitChanges({ repo, branch: 'main', author, message: 'one note', changes: [{ path: 'notes/one.yaml', content: 'title: One\n' }] }), types);
}

// Serial (ava runs these before the others): the hook counts the whole process's requests.
test.serial('under the lock file a knowledge write waits on the thread pool for its fsyncs only: no digest, no call on the lock folder', async (t) => {
  const lock = createFileLock({ onLost: () => undefined });
  const alone = await poolRequestsOfAWrite(t, loopFs() as unknown as FsClient);
  const locked = await poolRequestsOfAWrite(t, loopFs() as unknown as FsClient, lock);
  t.is(locked, alone, `${locked} requests with the lock file, ${alone} without`);
  t.is(await poolRequestsOfAWrite(t, loopFs() as unknown as FsClient, lock, ['HASHREQUEST', 'FSREQPROMISE']), 0);
});

test('a knowledge write waits on the thread pool a third as often as on plain node:fs, or less', async (t) => {
  const plain = await poolRequestsOfAWrite(t, fs as unknown as FsClient);
  const loop = await poolRequestsOfAWrite(t, loopFs() as unknown as FsClient);
  t.log(`${loop} requests to the thread pool against ${plain}`);
  t.true(loop * 3 <= plain, `${loop} requests against ${plain}`);
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
