// The best common ancestors of commits, as isomorphic-git's findMergeBase finds them (`git merge-base
// --all --octopus`), walking parents read through read-object.ts: isomorphic-git's walk reads each
// commit with a DecompressionStream and a crypto.subtle digest, two turns of the event loop per
// commit on a gateway busy with answers (issue 38). A shallow repository (a `shallow` file, which
// cuts parents off) is left to isomorphic-git.
import { join } from 'node:path';
import git from 'isomorphic-git';
import { readCommitParents } from './read-object.ts';
import type { GitRepo } from './repo.ts';

/** The merge bases of `oids`: common ancestors that are not ancestors of another common one. */
export async function findMergeBase(repo: GitRepo, oids: string[]): Promise<string[]> {
  if (await repo.dfs.io.stat(join(repo.gitdir, 'shallow')).then(() => true, () => false)) {
    return (await git.findMergeBase({ fs: repo.fs, gitdir: repo.gitdir, oids, cache: repo.cache })) as string[];
  }
  const parents = new Map<string, string[]>();
  const parentsOf = async (oid: string) => {
    let p = parents.get(oid);
    if (!p) parents.set(oid, (p = await readCommitParents(repo, oid)));
    return p;
  };
  const common = await commonAncestors(oids, parentsOf);
  if (common.size < 2) return [...common];
  // A merge base is only "best" when it is not an ancestor of another common ancestor.
  const redundant = new Set<string>();
  for (const oid of common) {
    const ancestors = [...(await parentsOf(oid))];
    const seen = new Set<string>();
    while (ancestors.length) {
      const ancestor = ancestors.pop()!;
      if (seen.has(ancestor)) continue;
      seen.add(ancestor);
      if (common.has(ancestor)) redundant.add(ancestor);
      else ancestors.push(...(await parentsOf(ancestor)));
    }
  }
  return [...common].filter((oid) => !redundant.has(oid));
}

/** One walker per oid back through the parents; the commits every walker passed, not walked past. */
async function commonAncestors(oids: string[], parentsOf: (oid: string) => Promise<string[]>): Promise<Set<string>> {
  const visits = new Map<string, Set<number>>();
  const common = new Set<string>();
  let heads = oids.map((oid, index) => ({ index, oid }));
  while (heads.length) {
    for (const { oid, index } of heads) {
      await parentsOf(oid);
      let v = visits.get(oid);
      if (!v) visits.set(oid, (v = new Set()));
      v.add(index);
      if (v.size === oids.length) common.add(oid);
    }
    const next = new Map<string, { oid: string; index: number }>();
    for (const { oid, index } of heads) {
      // Parents of a common commit cannot be better merge bases.
      if (common.has(oid)) continue;
      for (const parent of await parentsOf(oid)) if (!visits.get(parent)?.has(index)) next.set(`${parent}:${index}`, { oid: parent, index });
    }
    heads = [...next.values()];
  }
  return common;
}
