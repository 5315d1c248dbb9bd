import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';

/** A file's text at a ref or commit; undefined when the ref or the file does not exist. */
export async function readFile({ repo, ref, path }: { repo: GitRepo; ref: string; path: string }): Promise<string | undefined> {
  const oid = await resolveRef({ repo, ref });
  if (!oid) return undefined;
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, filepath: path, cache: repo.cache });
    return Buffer.from(blob).toString('utf8');
  } catch (err) {
    if (['NotFoundError', 'ObjectTypeError'].includes((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}
