// Branch listing, creation and deletion; creation and deletion take the repository's write lock.
import git from 'isomorphic-git';
import { BranchExists, BranchNotFound } from './errors.ts';
import type { GitRepo } from './repo.ts';
import { deleteBranchRef, resolveRef, writeBranchRef } from './resolve-ref.ts';

/** Names of the local branches. */
export async function listBranches({ repo }: { repo: GitRepo }): Promise<string[]> {
  return git.listBranches({ fs: repo.fs, gitdir: repo.gitdir });
}

/** Creates `branch` at `from` (a branch or commit); throws BranchExists unless `force`. */
export async function createBranch({ repo, branch, from, force = false }: { repo: GitRepo; branch: string; from: string; force?: boolean }): Promise<string> {
  return repo.lock.run(async () => {
    const oid = await resolveRef({ repo, ref: from });
    if (!oid) throw new BranchNotFound(from);
    if (!force && (await resolveRef({ repo, ref: branch }))) throw new BranchExists(branch);
    await writeBranchRef(repo, branch, oid);
    return oid;
  });
}

/** Deletes a branch; a missing branch is not an error. */
export async function deleteBranch({ repo, branch }: { repo: GitRepo; branch: string }): Promise<void> {
  await repo.lock.run(async () => {
    if (!(await resolveRef({ repo, ref: branch }))) return;
    await deleteBranchRef(repo, branch);
  });
}
