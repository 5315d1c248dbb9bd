import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';

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
  const files: TreeFile[] = [];
  const visit = async (treeOid: string, base: string): Promise<void> => {
    const { tree } = await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache });
    for (const entry of tree) {
      const path = base ? `${base}/${entry.path}` : entry.path;
      if (entry.type === 'tree') await visit(entry.oid, path);
      else if (entry.type === 'blob') files.push({ path, oid: entry.oid });
    }
  };
  let start: string;
  try {
    start = (await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: commit, filepath: prefix || undefined, cache: repo.cache })).oid;
  } catch (err) {
    if (['NotFoundError', 'ObjectTypeError'].includes((err as { code?: string }).code ?? '')) return [];
    throw err;
  }
  await visit(start, prefix.replace(/\/+$/, ''));
  return files;
}

/** Reads many blobs as text. */
export async function readBlobs(repo: GitRepo, oids: string[]): Promise<string[]> {
  return Promise.all(
    oids.map(async (oid) => Buffer.from((await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob).toString('utf8')),
  );
}
