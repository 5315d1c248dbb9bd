// Changed files between two refs: a walk over both trees that skips every subtree whose id is equal
// on both sides, so the cost follows the size of the change, not of the repository.
import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';

export type FileStatus = 'added' | 'modified' | 'deleted';

/** A changed file between two refs. */
export interface FileDiff {
  path: string;
  status: FileStatus;
}

/** Files that differ from `from` to `to` (either may be a branch or commit id; a missing ref is an empty tree). */
export async function diffRefs({ repo, from, to }: { repo: GitRepo; from: string; to: string }): Promise<FileDiff[]> {
  const [a, b] = await Promise.all([resolveRef({ repo, ref: from }), resolveRef({ repo, ref: to })]);
  if (a === b) return [];
  if (!a || !b) return (await listAll(repo, (a ?? b)!)).map((path) => ({ path, status: a ? 'deleted' : 'added' }));
  const out: FileDiff[] = [];
  await git.walk({
    fs: repo.fs,
    gitdir: repo.gitdir,
    cache: repo.cache,
    trees: [git.TREE({ ref: a }), git.TREE({ ref: b })],
    map: async (path, [ea, eb]) => {
      if (path === '.') return true;
      const [ta, tb] = await Promise.all([ea?.type(), eb?.type()]);
      const [oa, ob] = await Promise.all([ea?.oid(), eb?.oid()]);
      if (oa !== undefined && oa === ob) return null; // equal subtree or blob: prune
      const aFile = ta === 'blob';
      const bFile = tb === 'blob';
      if (aFile && bFile) out.push({ path, status: 'modified' });
      else {
        if (aFile) out.push({ path, status: 'deleted' });
        if (bFile) out.push({ path, status: 'added' });
      }
      return ta === 'tree' || tb === 'tree' ? true : null;
    },
  });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

async function listAll(repo: GitRepo, oid: string): Promise<string[]> {
  const files: string[] = [];
  await git.walk({
    fs: repo.fs,
    gitdir: repo.gitdir,
    cache: repo.cache,
    trees: [git.TREE({ ref: oid })],
    map: async (path, [e]) => {
      if (path !== '.' && (await e?.type()) === 'blob') files.push(path);
      return true;
    },
  });
  return files.sort();
}
