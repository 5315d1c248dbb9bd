// One bare repository (no working tree) per organization; the handle carries its write lock.
import { join } from 'node:path';
import git, { type FsClient, type TreeEntry } from 'isomorphic-git';
import { createWriteLock, type WriteLock } from './lock.ts';

/** A bare repository and the lock that serializes writes to it. */
export interface GitRepo {
  fs: FsClient;
  gitdir: string;
  lock: WriteLock;
  /** Object cache shared by reads of this repository (isomorphic-git's `cache` argument). */
  cache: object;
  /** Parsed trees by id (see tree-cache.ts). */
  trees: Map<string, TreeEntry[]>;
  /** Branch tips (full ref -> commit, null when absent) as last read or written here (see resolve-ref.ts). */
  refs: Map<string, string | null>;
}

/** Who made a commit; the timestamp is seconds since the epoch. */
export interface GitAuthor {
  name: string;
  email: string;
  timestamp: number;
}

/** Production's branch. */
export const MAIN_BRANCH = 'main';

/** Opens a bare repository, creating it (HEAD on main) when it does not exist. */
export async function openRepo({ fs, gitdir }: { fs: FsClient; gitdir: string }): Promise<GitRepo> {
  const exists = await git.resolveRef({ fs, gitdir, ref: 'HEAD', depth: 1 }).then(
    () => true,
    () => false,
  );
  if (!exists) await git.init({ fs, gitdir, bare: true, defaultBranch: MAIN_BRANCH });
  return { fs, gitdir, lock: createWriteLock(), cache: {}, trees: new Map(), refs: new Map() };
}

/** Hands out one GitRepo per key (organization), so all writers of a repository share its lock. */
export interface RepoRegistry {
  repo(key: string): Promise<GitRepo>;
  /** Forgets a repository handle (after its directory is removed). */
  forget(key: string): void;
}

/** A registry of repositories `<root>/<key>.git` on the given file system. */
export function createRepoRegistry({ fs, root }: { fs: FsClient; root: string }): RepoRegistry {
  const repos = new Map<string, Promise<GitRepo>>();
  return {
    repo(key) {
      if (!/^[\w-]+$/.test(key)) throw new Error(`invalid repository key ${key}`);
      let r = repos.get(key);
      if (!r) {
        r = openRepo({ fs, gitdir: join(root, `${key}.git`) });
        r.catch(() => repos.delete(key));
        repos.set(key, r);
      }
      return r;
    },
    forget: (key) => void repos.delete(key),
  };
}

/** `main` -> `refs/heads/main`. */
export function branchRef(branch: string): string {
  return branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}
