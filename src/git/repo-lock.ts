// The write lock of one repository: this process's chain first, then the shared lock, with a marker
// file in the repository for as long as the shared lock is held. A marker found on taking the lock
// means its last holder died mid-write (kill -9): every writer holds this lock before it creates a ref
// lock file, so the ref lock files left then have no live writer and are removed, rather than
// refusing every write on those branches until a restart runs the start-up check.
import { join } from 'node:path';
import type { FsPromises } from './durable-fs.ts';
import { createSharedWriteLock, type SharedLock, type WriteLock } from './lock.ts';

const MARKER = 'sextant-writing';

/** The lock every commit, merge and branch change of the repository at `gitdir` runs under. */
export function createRepoLock({ io, gitdir, key, shared }: { io: FsPromises; gitdir: string; key: string; shared: SharedLock | undefined }): WriteLock {
  const lock = createSharedWriteLock(shared, { key, gitdir });
  if (!shared) return lock;
  const marker = join(gitdir, MARKER);
  return {
    run: <T>(fn: () => Promise<T>): Promise<T> =>
      lock.run(async () => {
        if (await io.stat(marker).then(() => true, () => false)) await removeRefLockFiles(io, join(gitdir, 'refs'));
        await io.writeFile(marker, `${process.pid}\n`);
        try {
          return await fn();
        } finally {
          // A failed write has removed its own ref lock file (ref-store.ts): only a crash leaves the marker.
          await io.unlink(marker).catch(() => undefined);
        }
      }),
  };
}

async function removeRefLockFiles(io: FsPromises, dir: string): Promise<void> {
  for (const name of (await io.readdir(dir).catch(() => [] as string[])).map(String)) {
    const path = join(dir, name);
    // git refuses ref names ending in `.lock`, so such a file is always a lock.
    if (name.endsWith('.lock')) await io.unlink(path).catch(() => undefined);
    else if ((await io.lstat(path).catch(() => undefined))?.isDirectory()) await removeRefLockFiles(io, path);
  }
}
