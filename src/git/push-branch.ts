// Pushes a local branch to a remote over smart HTTP (the mirror). No SSH in isomorphic-git.
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import { branchRef, type GitRepo } from './repo.ts';

export interface RemoteAuth {
  username: string;
  password: string;
}

/** Pushes `branch` to `remoteBranch` at `url`; `remove` deletes the remote branch instead. */
export async function pushBranch({
  repo,
  http,
  url,
  branch,
  remoteBranch,
  auth,
  force = false,
  remove = false,
}: {
  repo: GitRepo;
  /** The HTTP client: the guarded outbound one for an organization's remote. */
  http: HttpClient;
  url: string;
  branch: string;
  remoteBranch: string;
  auth?: RemoteAuth;
  force?: boolean;
  remove?: boolean;
}): Promise<void> {
  const result = await git.push({
    fs: repo.fs,
    http,
    gitdir: repo.gitdir,
    url,
    ref: branchRef(branch),
    remoteRef: branchRef(remoteBranch),
    force,
    delete: remove,
    cache: repo.cache,
    onAuth: auth ? () => auth : undefined,
  });
  if (!result.ok) throw new Error(`push rejected: ${result.error ?? JSON.stringify(result.refs)}`);
}
