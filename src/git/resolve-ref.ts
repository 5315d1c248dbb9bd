// Branch tips, kept in memory: every read of knowledge starts by resolving its branch, and reading the
// ref from disk costs several file opens under isomorphic-git's lock, which a burst of agent runs queued
// behind one another (~2 ms each). The gateway owns its repositories (one process per data directory),
// so every ref change goes through writeBranchRef/deleteBranchRef below, which keep the memory right.
import git from 'isomorphic-git';
import { branchRef, type GitRepo } from './repo.ts';

/** The commit a branch (or full ref, or commit id) points at; undefined when it does not exist. */
export async function resolveRef({ repo, ref }: { repo: GitRepo; ref: string }): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  const full = branchRef(ref);
  const known = repo.refs.get(full);
  if (known !== undefined) return known ?? undefined;
  let oid: string | null;
  try {
    oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: full });
  } catch (err) {
    if ((err as { code?: string }).code !== 'NotFoundError') throw err;
    oid = null;
  }
  // A write that landed while this read was in flight has set the newer value: keep it.
  if (!repo.refs.has(full)) repo.refs.set(full, oid);
  return oid ?? undefined;
}

/** Points `branch` at `oid` (callers hold the repository's write lock and have checked the old value). */
export async function writeBranchRef(repo: GitRepo, branch: string, oid: string): Promise<void> {
  const full = branchRef(branch);
  try {
    await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: full, value: oid, force: true });
    repo.refs.set(full, oid);
  } catch (err) {
    // Whatever the disk holds after a failed write is read again next time.
    repo.refs.delete(full);
    throw err;
  }
}

/** Deletes `branch` (callers hold the repository's write lock). */
export async function deleteBranchRef(repo: GitRepo, branch: string): Promise<void> {
  const full = branchRef(branch);
  try {
    await git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref: full });
    repo.refs.set(full, null);
  } catch (err) {
    repo.refs.delete(full);
    throw err;
  }
}
