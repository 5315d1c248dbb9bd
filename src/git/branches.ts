// Branch listing, creation and deletion; creation and deletion take the repository's write lock.
import git from 'isomorphic-git';
import { BranchExists, BranchNotFound } from './errors.ts';
import type { GitAuthor, GitRepo } from './repo.ts';
import { deleteBranchRef, resolveRef, writeBranchRef } from './resolve-ref.ts';

/** Names of the local branches. */
export async function listBranches({ repo }: { repo: GitRepo }): Promise<string[]> {
  return git.listBranches({ fs: repo.fs, gitdir: repo.gitdir });
}

const SYSTEM: GitAuthor = { name: 'Sextant', email: 'sextant@localhost', timestamp: 0 };

/** Creates `branch` at `from` (a branch or commit); throws BranchExists unless `force`. `author` goes to the reflog. */
export async function createBranch({
  repo,
  branch,
  from,
  force = false,
  author = { ...SYSTEM, timestamp: Math.floor(Date.now() / 1000) },
}: {
  repo: GitRepo;
  branch: string;
  from: string;
  force?: boolean;
  author?: GitAuthor;
}): Promise<string> {
  return repo.lock.run(async () => {
    const oid = await resolveRef({ repo, ref: from, fresh: true });
    if (!oid) throw new BranchNotFound(from);
    const existing = await resolveRef({ repo, ref: branch, fresh: true });
    if (!force && existing) throw new BranchExists(branch);
    await writeBranchRef(repo, branch, oid, { expected: existing, who: author, message: `branch: Created from ${from}` });
    return oid;
  });
}

/** Deletes a branch; a missing branch is not an error. */
export async function deleteBranch({ repo, branch }: { repo: GitRepo; branch: string }): Promise<void> {
  await repo.lock.run(async () => {
    if (!(await resolveRef({ repo, ref: branch, fresh: true }))) return;
    await deleteBranchRef(repo, branch);
  });
}
