// A file's text written as a loose blob with Node's own hash and zlib: isomorphic-git deflates each
// object through a CompressionStream, a Blob and a Response, which made a commit of thousands of
// files slow and left their buffers to the collector.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import git from 'isomorphic-git';
import type { GitRepo } from './repo.ts';
import { LOOSE_COMPRESSION } from './write-object.ts';

/** Writes `text` as a blob; returns its id (git's SHA-1 of `blob <bytes>\0<text>`). */
export async function writeBlob(repo: GitRepo, text: string): Promise<string> {
  const body = Buffer.from(text, 'utf8');
  const wrapped = Buffer.concat([Buffer.from(`blob ${body.length}\0`), body]);
  const oid = createHash('sha1').update(wrapped).digest('hex');
  await git.writeObject({ fs: repo.fs, gitdir: repo.gitdir, type: 'blob', object: deflateSync(wrapped, LOOSE_COMPRESSION), format: 'deflated', oid });
  return oid;
}
