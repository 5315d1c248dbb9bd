// Writes to one repository run one at a time. In this process a promise chain orders them, so a
// process never contends with itself; behind it a SharedLock (a lock file beside the repository, or a
// PostgreSQL advisory lock) orders them across the gateway processes sharing one data folder, since
// isomorphic-git's writeRef has no compare-and-swap and a tip read by one process may be moved by another.

/** Serializes async work: `run(fn)` starts fn only after every earlier fn has settled. */
export interface WriteLock {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

/** Which repository a shared lock is taken for: its registry key (the organization) and its folder. */
export interface LockTarget {
  key: string;
  gitdir: string;
}

/** Excludes the other processes from one repository; `acquire` resolves once the lock is held, to its release. */
export interface SharedLock {
  acquire(target: LockTarget): Promise<() => Promise<void>>;
}

/** A new, free lock. */
export function createWriteLock(): WriteLock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = tail.then(fn);
      // The chain continues whether fn succeeded or failed.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

/** This process's chain, then `shared` (when given) on `target`, released after fn settles. */
export function createSharedWriteLock(shared: SharedLock | undefined, target: LockTarget): WriteLock {
  const chain = createWriteLock();
  if (!shared) return chain;
  return {
    run: <T>(fn: () => Promise<T>): Promise<T> =>
      chain.run(async () => {
        const release = await shared.acquire(target);
        try {
          return await fn();
        } finally {
          await release();
        }
      }),
  };
}
