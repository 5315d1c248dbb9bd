import git from 'isomorphic-git';
import { branchRef, type GitRepo } from './repo.ts';

/** The commit a branch (or full ref, or commit id) points at; undefined when it does not exist. */
export async function resolveRef({ repo, ref }: { repo: GitRepo; ref: string }): Promise<string | undefined> {
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: branchRef(ref) });
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') return undefined;
    throw err;
  }
}
