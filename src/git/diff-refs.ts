// Changed files between two refs: a walk over both trees that skips every subtree whose id is equal
// on both sides, so the cost follows the size of the change, not of the repository.
import type { TreeEntry } from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';
import { commitTree, treeEntries } from './tree-cache.ts';

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
  const [ta, tb] = await Promise.all([a ? commitTree(repo, a) : undefined, b ? commitTree(repo, b) : undefined]);
  const out: FileDiff[] = [];
  await diffTrees(repo, ta, tb, '', out);
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

async function diffTrees(repo: GitRepo, a: string | undefined, b: string | undefined, base: string, out: FileDiff[]): Promise<void> {
  if (a === b) return; // equal subtree: pruned
  const [ea, eb] = await Promise.all([a ? treeEntries(repo, a) : [], b ? treeEntries(repo, b) : []]);
  const mb = new Map(eb.map((e) => [e.path, e]));
  const subs: Promise<void>[] = [];
  const visit = (x: TreeEntry | undefined, y: TreeEntry | undefined, name: string) => {
    if (x?.oid === y?.oid) return;
    const path = base ? `${base}/${name}` : name;
    const xt = x?.type === 'tree' ? x.oid : undefined;
    const yt = y?.type === 'tree' ? y.oid : undefined;
    if (x?.type === 'blob' && y?.type === 'blob') out.push({ path, status: 'modified' });
    else {
      if (x?.type === 'blob') out.push({ path, status: 'deleted' });
      if (y?.type === 'blob') out.push({ path, status: 'added' });
    }
    if (xt || yt) subs.push(diffTrees(repo, xt, yt, path, out));
  };
  for (const x of ea) visit(x, mb.get(x.path), x.path);
  const na = new Set(ea.map((e) => e.path));
  for (const y of eb) if (!na.has(y.path)) visit(undefined, y, y.path);
  await Promise.all(subs);
}
