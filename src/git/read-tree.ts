import type { TreeEntry } from 'isomorphic-git';
import { readBlobObject } from './read-object.ts';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';
import { commitTree, treeEntries } from './tree-cache.ts';

/** A file in a tree: its path from the repository root and its blob id. */
export interface TreeFile {
  path: string;
  oid: string;
}

/**
 * Every file under `prefix` (the whole tree when omitted) at a ref, depth first in path order;
 * empty when the ref or the folder does not exist.
 */
export async function readTree({ repo, ref, prefix = '' }: { repo: GitRepo; ref: string; prefix?: string }): Promise<TreeFile[]> {
  const commit = await resolveRef({ repo, ref });
  if (!commit) return [];
  let tree: string = await commitTree(repo, commit);
  const base = prefix.replace(/\/+$/, '');
  for (const segment of base ? base.split('/') : []) {
    const entry: TreeEntry | undefined = (await treeEntries(repo, tree)).find((e) => e.path === segment);
    if (entry?.type !== 'tree') return [];
    tree = entry.oid;
  }
  const files: TreeFile[] = [];
  const visit = async (oid: string, dir: string): Promise<void> => {
    for (const entry of await treeEntries(repo, oid)) {
      const path = dir ? `${dir}/${entry.path}` : entry.path;
      if (entry.type === 'tree') await visit(entry.oid, path);
      else if (entry.type === 'blob') files.push({ path, oid: entry.oid });
    }
  };
  await visit(tree, base);
  return files;
}

/**
 * Blobs read between two yields to the event loop: a blob is read in the caller's turn
 * (read-object.ts), so the first read of 10,000 files would otherwise hold the loop for its whole length.
 */
const BLOBS_PER_TURN = 256;

/** Reads many blobs as text. */
export async function readBlobs(repo: GitRepo, oids: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0; i < oids.length; i += BLOBS_PER_TURN) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const oid of oids.slice(i, i + BLOBS_PER_TURN)) texts.push((await readBlobObject(repo, oid)).toString('utf8'));
  }
  return texts;
}
