import type { TreeEntry } from 'isomorphic-git';
import { readBlobObject } from './read-object.ts';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';
import { commitTree, treeEntries } from './tree-cache.ts';

/** A file's text at a ref or commit; undefined when the ref or the file does not exist. */
export async function readFile({ repo, ref, path }: { repo: GitRepo; ref: string; path: string }): Promise<string | undefined> {
  return (await readFileVersion({ repo, ref, path }))?.text;
}

/** A file's text and blob id (its version) at a ref or commit; undefined when either does not exist. */
export async function readFileVersion({ repo, ref, path }: { repo: GitRepo; ref: string; path: string }): Promise<{ text: string; oid: string } | undefined> {
  const oid = await resolveRef({ repo, ref });
  if (!oid) return undefined;
  try {
    // The path is walked through the parsed trees kept by id (tree-cache.ts): isomorphic-git's own walk
    // reads and hashes every tree on it again, each hash settling in a later turn of the event loop.
    let entry: TreeEntry | undefined = { mode: '040000', path: '', oid: await commitTree(repo, oid), type: 'tree' };
    for (const name of path.split('/')) entry = entry?.type === 'tree' ? (await treeEntries(repo, entry.oid)).find((e) => e.path === name) : undefined;
    if (entry?.type !== 'blob') return undefined;
    return { text: (await readBlobObject(repo, entry.oid)).toString('utf8'), oid: entry.oid };
  } catch (err) {
    if (['NotFoundError', 'ObjectTypeError'].includes((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}
