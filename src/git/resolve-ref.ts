// Branch tips, kept in memory: every read of knowledge starts by resolving its branch, and reading the
// ref from disk costs a file open, which a burst of agent runs queued behind one another. Other
// processes may share the repository (one data folder on a shared volume), so a kept tip is trusted
// only while its file's stamp (one stat, see refStamp) is unchanged; writes, under the repository lock,
// read the tip from disk and move it by compare-and-swap (writeBranchRef).
import { BranchMoved } from './errors.ts';
import { branchRef, MAIN_BRANCH, type GitAuthor, type GitRepo } from './repo.ts';
import { refuseLostProduction } from './repo-history.ts';
import { deleteRefFile, readRefValue, refStamp, updateRef } from './ref-store.ts';

const PRODUCTION = branchRef(MAIN_BRANCH);

/**
 * The commit a branch (or full ref, or commit id) points at; undefined when it does not exist. With
 * `fresh` (writers, under the lock) it is read from disk whatever is kept. Throws RefDamaged when the
 * ref's file is empty or unreadable: a damaged branch is never taken for a missing one (that is how a
 * crash once made the service start production over), and when production is missing from a
 * repository that once held knowledge (see repo-history.ts).
 */
export async function resolveRef({ repo, ref, fresh = false }: { repo: GitRepo; ref: string; fresh?: boolean }): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  const full = branchRef(ref);
  // The stamp is taken before the value: a move in between leaves a stamp that no longer matches, and
  // the next read reads again.
  const stamp = await refStamp(repo, full);
  const known = repo.refs.get(full);
  if (!fresh && known?.stamp === stamp) return known.oid ?? undefined;
  const oid = await readRefValue(repo, full);
  if (oid === null && full === PRODUCTION) await refuseLostProduction(repo, full);
  repo.refs.set(full, { oid, stamp });
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
  let stamp: string | undefined;
  try {
    stamp = await updateRef(repo, full, oid, { expected: a.expected ?? null, who: a.who, message: a.message });
  } catch (err) {
    // Whatever the disk holds after a failed write is read again next time.
    repo.refs.delete(full);
    throw err;
  }
  if (stamp === undefined) {
    repo.refs.delete(full);
    throw new BranchMoved(branch);
  }
  // The stamp is of the file this write put in place: a later move by anyone changes it.
  repo.refs.set(full, { oid, stamp });
}

/** Deletes `branch` and its reflog (callers hold the repository's write lock). */
export async function deleteBranchRef(repo: GitRepo, branch: string): Promise<void> {
  const full = branchRef(branch);
  try {
    await deleteRefFile(repo, full);
    // Under the lock no other writer recreates the branch before this stamp is taken.
    repo.refs.set(full, { oid: null, stamp: await refStamp(repo, full) });
  } catch (err) {
    repo.refs.delete(full);
    throw err;
  }
}
