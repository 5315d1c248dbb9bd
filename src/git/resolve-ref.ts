// Branch tips, kept in memory: every read of knowledge starts by resolving its branch, and reading the
// ref from disk costs a file open, which a burst of agent runs queued behind one another. The gateway
// owns its repositories (one process per data directory), so every ref change goes through
// writeBranchRef/deleteBranchRef below, which keep the memory right.
import { BranchMoved } from './errors.ts';
import { branchRef, type GitAuthor, type GitRepo } from './repo.ts';
import { deleteRefFile, readRefValue, updateRef } from './ref-store.ts';

/**
 * The commit a branch (or full ref, or commit id) points at; undefined when it does not exist.
 * Throws RefDamaged when the ref's file is empty or unreadable: a damaged branch is never taken
 * for a missing one (that is how a crash once made the service start production over).
 */
export async function resolveRef({ repo, ref }: { repo: GitRepo; ref: string }): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  const full = branchRef(ref);
  const known = repo.refs.get(full);
  if (known !== undefined) return known ?? undefined;
  const oid = await readRefValue(repo, full);
  // A write that landed while this read was in flight has set the newer value: keep it.
  if (!repo.refs.has(full)) repo.refs.set(full, oid);
  return oid ?? undefined;
}

/**
 * Moves `branch` from `expected` (undefined: it must not exist yet) to `oid`, with `who` and `message`
 * in its reflog; throws BranchMoved when it holds anything else. Callers hold the write lock.
 */
export async function writeBranchRef(
  repo: GitRepo,
  branch: string,
  oid: string,
  a: { expected: string | undefined; who: GitAuthor; message: string },
): Promise<void> {
  const full = branchRef(branch);
  let moved: boolean;
  try {
    moved = await updateRef(repo, full, oid, { expected: a.expected ?? null, who: a.who, message: a.message });
  } catch (err) {
    // Whatever the disk holds after a failed write is read again next time.
    repo.refs.delete(full);
    throw err;
  }
  if (!moved) {
    repo.refs.delete(full);
    throw new BranchMoved(branch);
  }
  repo.refs.set(full, oid);
}

/** Deletes `branch` and its reflog (callers hold the repository's write lock). */
export async function deleteBranchRef(repo: GitRepo, branch: string): Promise<void> {
  const full = branchRef(branch);
  try {
    await deleteRefFile(repo, full);
    repo.refs.set(full, null);
  } catch (err) {
    repo.refs.delete(full);
    throw err;
  }
}
