// Parsed trees by id. A tree id names its content forever, so entries never go stale; the map is
// bounded so a huge history cannot grow it without limit.
import type { TreeEntry } from 'isomorphic-git';
import { readCommitTree, readTreeObject } from './read-object.ts';
import type { GitRepo } from './repo.ts';

const MAX_TREES = 20_000;

/** The entries of a tree (from the repository's cache when seen before). */
export async function treeEntries(repo: GitRepo, oid: string): Promise<TreeEntry[]> {
  const hit = repo.trees.get(oid);
  if (hit) return hit;
  const tree = await readTreeObject(repo, oid);
  if (repo.trees.size >= MAX_TREES) repo.trees.delete(repo.trees.keys().next().value!);
  repo.trees.set(oid, tree);
  return tree;
}

/** The root tree of a commit. */
export async function commitTree(repo: GitRepo, commit: string): Promise<string> {
  return readCommitTree(repo, commit);
}
