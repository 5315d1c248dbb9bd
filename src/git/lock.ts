// A promise-chain mutex: isomorphic-git's writeRef has no compare-and-swap, so every commit and merge
// on one repository runs inside this lock, one after the other.

/** Serializes async work: `run(fn)` starts fn only after every earlier fn has settled. */
export interface WriteLock {
  run<T>(fn: () => Promise<T>): Promise<T>;
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
