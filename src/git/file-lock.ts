// The shared write lock as a lock file beside each repository (`<org>.git.lock`, a folder that
// proper-lockfile creates with mkdir, atomic on local and network file systems). Its holder touches it
// every staleMs / 2; a lock untouched for staleMs belongs to a dead holder (kill -9, a lost machine)
// and is taken over, so no crash blocks the other processes for ever. The holder also names itself
// (host and pid) in `<org>.git.lock.owner`: a holder on this machine whose process is gone is known
// dead at once, so a restart after kill -9 does not wait out the stale limit.
import { hostname } from 'node:os';
import * as fs from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { RepositoryBusy } from './errors.ts';
import type { SharedLock } from './lock.ts';

// Polled while another process holds the lock: short first waits, since writes take milliseconds,
// then at most 100 ms apart, for two minutes before the write gives up.
const WAIT_MS = 120_000;
const MAX_DELAY_MS = 100;
const me = `${hostname()} ${process.pid}`;

/**
 * A lock file per repository on the disk (proper-lockfile keeps its locks by path, process-wide, so not
 * for in-memory file systems); `onLost` hears of a lock taken from this process while it held it.
 */
export function createFileLock({ staleMs = 10_000, onLost }: { staleMs?: number; onLost(err: Error): void }): SharedLock {
  return {
    async acquire({ gitdir }) {
      const path = `${gitdir}.lock`;
      const deadline = Date.now() + WAIT_MS;
      for (let delay = 2; ; delay = Math.min(delay * 1.5, MAX_DELAY_MS)) {
        const release = await tryLock(gitdir, path, staleMs, onLost);
        if (release) return release;
        if (Date.now() > deadline) throw new RepositoryBusy();
        await reapDeadLocalHolder(path, staleMs);
        await new Promise((resolve) => setTimeout(resolve, delay * (1 + Math.random())));
      }
    },
  };
}

async function tryLock(gitdir: string, path: string, staleMs: number, onLost: (err: Error) => void): Promise<(() => Promise<void>) | undefined> {
  let release: () => Promise<void>;
  try {
    // A lost lock costs no acknowledged write (the ref is still compare-and-swapped); proper-lockfile's
    // default would throw from a timer and end the process.
    release = await lockfile.lock(gitdir, { lockfilePath: path, realpath: false, stale: staleMs, retries: 0, onCompromised: onLost });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') return undefined;
    throw err;
  }
  await fs.writeFile(`${path}.owner`, me);
  return async () => {
    // The owner goes first: an owner file without its lock would name a holder that is not one.
    await fs.unlink(`${path}.owner`).catch(() => undefined);
    // Releasing a lock that was taken over fails; the other holder owns it now.
    await release().catch(() => undefined);
  };
}

/**
 * Ages the lock past the stale limit when its owner is a process of this machine that no longer runs,
 * so the next attempt takes it over. One reaper at a time (`.reap`, created exclusively), so a lock
 * taken over meanwhile is not aged again.
 */
async function reapDeadLocalHolder(path: string, staleMs: number): Promise<void> {
  const reap = `${path}.reap`;
  const marker = await fs.open(reap, 'wx').catch(async (err: { code?: string }) => {
    // A reaper that died leaves its marker: past the stale limit it no longer counts.
    if (err.code === 'EEXIST' && Date.now() - (await fs.stat(reap).then((s) => s.mtimeMs, () => Date.now())) > staleMs) await fs.unlink(reap).catch(() => undefined);
    return undefined;
  });
  if (!marker) return;
  try {
    const [host, pid] = (await fs.readFile(`${path}.owner`, 'utf8').catch(() => '')).split(' ');
    if (host !== hostname() || !pid || isAlive(Number(pid))) return;
    await fs.unlink(`${path}.owner`).catch(() => undefined);
    const past = new Date(Date.now() - 2 * staleMs);
    await fs.utimes(path, past, past).catch(() => undefined);
  } finally {
    await marker.close();
    await fs.unlink(reap).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as { code?: string }).code === 'EPERM';
  }
}
