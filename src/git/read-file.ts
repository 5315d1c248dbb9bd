import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { resolveRef } from './resolve-ref.ts';

/** A file's text at a ref or commit; undefined when the ref or the file does not exist. */
export async function readFile({ repo, ref, path }: { repo: GitRepo; ref: string; path: string }): Promise<string | undefined> {
  return (await readFileVersion({ repo, ref, path }))?.text;
}

/** A file's text and blob id (its version) at a ref or commit; undefined when either does not exist. */
export async function readFileVersion({ repo, ref, path }: { repo: GitRepo; ref: string; path: string }): Promise<{ text: string; oid: string } | undefined> {
  const oid = await resolveRef({ repo, ref });
  if (!oid) return undefined;
  try {
    const { blob, oid: blobOid } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, filepath: path, cache: repo.cache });
    return { text: Buffer.from(blob).toString('utf8'), oid: blobOid };
  } catch (err) {
    if (['NotFoundError', 'ObjectTypeError'].includes((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}
