import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { findMergeBase } from './merge-base.ts';
import { resolveRef } from './resolve-ref.ts';

/** One commit in a history listing. */
export interface CommitInfo {
  oid: string;
  message: string;
  author: { name: string; email: string; timestamp: number };
  parents: string[];
}

/** Commits reachable from `ref`, newest first; with `path`, only those that changed that file. */
export async function history({ repo, ref, path, depth = 100 }: { repo: GitRepo; ref: string; path?: string; depth?: number }): Promise<CommitInfo[]> {
  const oid = await resolveRef({ repo, ref });
  if (!oid) return [];
  try {
    const entries = await git.log({ fs: repo.fs, gitdir: repo.gitdir, ref: oid, depth: path ? undefined : depth, filepath: path, force: true, cache: repo.cache });
    return entries.slice(0, depth).map((e) => ({
      oid: e.oid,
      message: e.commit.message.trimEnd(),
      author: { name: e.commit.author.name, email: e.commit.author.email, timestamp: e.commit.author.timestamp },
      parents: e.commit.parent,
    }));
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') return [];
    throw err;
  }
}

/** The best common ancestor of two commits, if any. */
export async function mergeBase({ repo, a, b }: { repo: GitRepo; a: string; b: string }): Promise<string | undefined> {
  const [oa, ob] = await Promise.all([resolveRef({ repo, ref: a }), resolveRef({ repo, ref: b })]);
  if (!oa || !ob) return undefined;
  const bases = await findMergeBase(repo, [oa, ob]);
  return bases[0];
}

/** True when `oid` names a commit in the repository. */
export async function commitExists({ repo, oid }: { repo: GitRepo; oid: string }): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return false;
  try {
    await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
    return true;
  } catch {
    return false;
  }
}
