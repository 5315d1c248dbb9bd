// The shared write lock as a lock file beside each repository (`<org>.git.lock`, a folder that
// proper-lockfile creates with mkdir, atomic on local and network file systems). Its holder touches it
// every staleMs / 2; a lock untouched for staleMs belongs to a dead holder (kill -9, a lost machine)
// and is taken over, so no crash blocks the other processes for ever. Every process that takes the lock
// first leaves a claim beside it (`<org>.git.lock.owner-<host>-<pid>`, once): when every other claimant
// is a process of this machine that no longer runs, the holder is known dead at once, so a restart
// after kill -9, or the one surviving replica, does not wait out the stale limit.
import { hostname } from 'node:os';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { RepositoryBusy } from './errors.ts';
import type { SharedLock } from './lock.ts';

// Polled while another process holds the lock: short first waits, since writes take milliseconds,
// then at most 100 ms apart, for two minutes before the write gives up.
const WAIT_MS = 120_000;
const MAX_DELAY_MS = 100;
const HOST = hostname();

type Callback<T> = (err: Error | null, value?: T) => void;
/** A synchronous call's outcome handed to a node-style callback in this turn (after the caller's own code, as a callback expects). */
const answer = <T>(call: () => T, cb: Callback<T>) => {
  let value: T;
  try {
    value = call();
  } catch (err) {
    process.nextTick(cb, err as Error);
    return;
  }
  process.nextTick(cb, null, value);
};

/**
 * The calls proper-lockfile makes on the lock folder (mkdir, stat, utimes, rmdir: short metadata
 * calls), answered in the caller's turn of the event loop as loop-fs.ts answers the repository's: each
 * through the thread pool waited for a whole turn of the answers' work, three per knowledge write
 * (issue 38). One object for the process: proper-lockfile caches the mtime precision on it.
 */
const LOCK_FS = {
  mkdir: (path: string, cb: Callback<void>) => answer(() => void fsSync.mkdirSync(path), cb),
  rmdir: (path: string, cb: Callback<void>) => answer(() => fsSync.rmdirSync(path), cb),
  rmdirSync: (path: string) => fsSync.rmdirSync(path),
  stat: (path: string, cb: Callback<fsSync.Stats>) => answer(() => fsSync.statSync(path), cb),
  utimes: (path: string, atime: Date, mtime: Date, cb: Callback<void>) => answer(() => fsSync.utimesSync(path, atime, mtime), cb),
  realpath: (path: string, cb: Callback<string>) => answer(() => fsSync.realpathSync(path), cb),
};

/**
 * A lock file per repository on the disk (proper-lockfile keeps its locks by path, process-wide, so not
 * for in-memory file systems); `onLost` hears of a lock taken from this process while it held it.
 */
export function createFileLock({ staleMs = 10_000, onLost }: { staleMs?: number; onLost(err: Error): void }): SharedLock {
  const claimed = new Set<string>();
  return {
    async acquire({ gitdir }) {
      const path = `${gitdir}.lock`;
      if (!claimed.has(path)) {
        await fs.writeFile(`${path}.owner-${HOST}-${process.pid}`, '');
        await pruneDeadClaims(path);
        claimed.add(path);
      }
      const deadline = Date.now() + WAIT_MS;
      for (let delay = 2; ; delay = Math.min(delay * 1.5, MAX_DELAY_MS)) {
        const release = await tryLock(gitdir, path, staleMs, onLost);
        if (release) return release;
        if (Date.now() > deadline) throw new RepositoryBusy();
        await reapDeadHolder(path, staleMs);
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
    release = await lockfile.lock(gitdir, { lockfilePath: path, realpath: false, stale: staleMs, retries: 0, onCompromised: onLost, fs: LOCK_FS });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') return undefined;
    throw err;
  }
  // Releasing a lock that was taken over fails; the other holder owns it now.
  return () => release().catch(() => undefined);
}

/** The pid of a claim left by a process of this machine, or undefined for another machine's. */
function localPid(name: string, prefix: string): number | undefined {
  const local = `${prefix}${HOST}-`;
  return name.startsWith(local) && /^\d+$/.test(name.slice(local.length)) ? Number(name.slice(local.length)) : undefined;
}

/**
 * Removes the claims of this machine's processes that no longer run, other than this one's. A process
 * that exits leaves its claim (a clean stop is not told to remove it), so each start would add one for
 * good; and a dead claim whose pid a new process reuses would look alive and make a dead holder's lock
 * wait out the stale limit. Removing a dead process's claim never changes what the reaper decides: it
 * already counts only the living.
 */
async function pruneDeadClaims(path: string): Promise<void> {
  const prefix = `${basename(path)}.owner-`;
  const names = await fs.readdir(dirname(path)).catch(() => [] as string[]);
  await Promise.all(
    names.flatMap((n) => {
      const pid = n.startsWith(prefix) ? localPid(n, prefix) : undefined;
      return pid === undefined || pid === process.pid || isAlive(pid) ? [] : [fs.unlink(join(dirname(path), n)).catch(() => undefined)];
    }),
  );
}

/**
 * Ages the lock past the stale limit when no other process that ever claimed it still runs (all of
 * them on this machine, their pids gone), so the next attempt takes it over. One reaper at a time
 * (`.reap`, created exclusively); claims from other machines leave it to the stale limit.
 */
async function reapDeadHolder(path: string, staleMs: number): Promise<void> {
  const reap = `${path}.reap`;
  const marker = await fs.open(reap, 'wx').catch(async (err: { code?: string }) => {
    // A reaper that died leaves its marker: past the stale limit it no longer counts.
    if (err.code === 'EEXIST' && Date.now() - (await fs.stat(reap).then((s) => s.mtimeMs, () => Date.now())) > staleMs) await fs.unlink(reap).catch(() => undefined);
    return undefined;
  });
  if (!marker) return;
  try {
    const prefix = `${basename(path)}.owner-`;
    const mine = `${prefix}${HOST}-${process.pid}`;
    const others = (await fs.readdir(dirname(path))).filter((n) => n.startsWith(prefix) && n !== mine);
    if (others.some((n) => {
      const pid = localPid(n, prefix);
      return pid === undefined || isAlive(pid);
    })) return;
    await Promise.all(others.map((n) => fs.unlink(join(dirname(path), n)).catch(() => undefined)));
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
