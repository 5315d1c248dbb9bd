// One bare repository (no working tree) per organization; the handle carries its write lock (shared
// with other processes when given a SharedLock) and the crash-safe file system every write goes through.
import { basename, dirname, join } from 'node:path';
import git, { type FsClient, type TreeEntry } from 'isomorphic-git';
import { createDurableFs, type DurableFs, type FsPromises } from './durable-fs.ts';
import { createSharedWriteLock, type SharedLock, type WriteLock } from './lock.ts';
import { RepositoryMissing } from './errors.ts';
import type { LoadedPack } from './pack-index.ts';
import { createRepoLock } from './repo-lock.ts';

/** A bare repository and the lock that serializes writes to it. */
export interface GitRepo {
  /** The file system given to isomorphic-git (crash-safe writes, see durable-fs.ts). */
  fs: FsClient;
  dfs: DurableFs;
  gitdir: string;
  lock: WriteLock;
  /**
   * Orders pushes of this repository to its mirror, across processes when `shared` is given: each push
   * sends the tip it reads, so pushes out of order could move a force-pushed branch back. Apart from
   * `lock`, so that a slow push never holds up knowledge writes.
   */
  pushLock: WriteLock;
  /** Object cache shared by reads of this repository (isomorphic-git's `cache` argument). */
  cache: object;
  /** Packs read by name (pack-<sha>), see read-packed.ts. */
  packs: Map<string, Promise<LoadedPack>>;
  /** Parsed trees by id (see tree-cache.ts). */
  trees: Map<string, TreeEntry[]>;
  /** Branch tips (full ref -> commit, null when absent) as last read here, with their file's stamp (see resolve-ref.ts). */
  refs: Map<string, KnownRef>;
  /** Whether the repository ever held knowledge (see repo-history.ts): `known` once seen, `outside` the caller's evidence. */
  history: { known: boolean; outside?: () => Promise<boolean> };
}

/** A branch tip as last read, with the stamp of the ref file it came from (see resolve-ref.ts). */
export interface KnownRef {
  oid: string | null;
  stamp: string;
}

/** Who made a commit; the timestamp is seconds since the epoch. */
export interface GitAuthor {
  name: string;
  email: string;
  timestamp: number;
}

/** Production's branch. */
export const MAIN_BRANCH = 'main';

/**
 * Opens a bare repository. A missing one is created in a temporary folder and renamed into place, so
 * a crash never leaves a half-made repository; an existing one is never initialized again. Without
 * `shared` its writes are serialized in this process only. `hadHistory` is what the caller knows from
 * outside (the database): when it says the repository once held knowledge, a missing folder was lost,
 * and is refused (RepositoryMissing) rather than made anew.
 */
export async function openRepo({ fs, gitdir, shared, hadHistory }: { fs: FsClient; gitdir: string; shared?: SharedLock; hadHistory?: () => Promise<boolean> }): Promise<GitRepo> {
  const dfs = createDurableFs(fs as unknown as { promises: FsPromises });
  const exists = await dfs.io.stat(gitdir).then(() => true, () => false);
  if (!exists && (await hadHistory?.())) throw new RepositoryMissing(basename(gitdir, '.git'));
  if (!exists) {
    await dfs.io.mkdir(dirname(gitdir), { recursive: true });
    const tmp = join(dirname(gitdir), `.tmp-${basename(gitdir)}-${process.pid}-${Date.now()}`);
    await git.init({ fs: dfs.client, gitdir: tmp, bare: true, defaultBranch: MAIN_BRANCH });
    await dfs.flush();
    await dfs.io.rename(tmp, gitdir).catch(async (err: unknown) => {
      // Another opener won the race: keep its repository.
      await dfs.io.rm?.(tmp, { recursive: true, force: true });
      if (!(await dfs.io.stat(gitdir).then(() => true, () => false))) throw err;
    });
    await dfs.syncDirs([dirname(gitdir)]);
  } else if (!(await dfs.io.stat(join(gitdir, 'HEAD')).then(() => true, () => false))) {
    // A repository whose HEAD was lost is still a repository: git needs HEAD to recognize it.
    await dfs.writeAtomic(join(gitdir, 'HEAD'), `ref: refs/heads/${MAIN_BRANCH}\n`);
  }
  const key = basename(gitdir, '.git');
  const lock = createRepoLock({ io: dfs.io, gitdir, key, shared });
  const pushLock = createSharedWriteLock(shared, { key: `${key}:mirror-push`, gitdir: `${gitdir}.push` });
  return { fs: dfs.client, dfs, gitdir, lock, pushLock, cache: {}, packs: new Map(), trees: new Map(), refs: new Map(), history: { known: false, outside: hadHistory } };
}

/** Hands out one GitRepo per key (organization), so all writers of a repository share its lock. */
export interface RepoRegistry {
  repo(key: string): Promise<GitRepo>;
  /** Forgets a repository handle (after its directory is removed). */
  forget(key: string): void;
  /** Keys of the repositories on disk. */
  keys(): Promise<string[]>;
}

/**
 * A registry of repositories `<root>/<key>.git` on the given file system, written under `shared` when
 * given; `hadHistory(key)` is the outside evidence that a key once held knowledge (see openRepo).
 */
export function createRepoRegistry({ fs, root, shared, hadHistory }: { fs: FsClient; root: string; shared?: SharedLock; hadHistory?: (key: string) => Promise<boolean> }): RepoRegistry {
  const repos = new Map<string, Promise<GitRepo>>();
  return {
    repo(key) {
      if (!/^[\w-]+$/.test(key)) throw new Error(`invalid repository key ${key}`);
      let r = repos.get(key);
      if (!r) {
        r = openRepo({ fs, gitdir: join(root, `${key}.git`), shared, hadHistory: hadHistory && (() => hadHistory(key)) });
        r.catch(() => repos.delete(key));
        repos.set(key, r);
      }
      return r;
    },
    forget: (key) => void repos.delete(key),
    async keys() {
      const names = await (fs as unknown as { promises: FsPromises }).promises.readdir(root).catch(() => [] as string[]);
      return names.filter((n) => /^[\w-]+\.git$/.test(String(n))).map((n) => String(n).slice(0, -4)).sort();
    },
  };
}

/** `main` -> `refs/heads/main`. */
export function branchRef(branch: string): string {
  return branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}
