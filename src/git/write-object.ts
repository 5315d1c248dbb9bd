// Trees and commits written as loose objects with Node's own SHA-1 and zlib, as write-blob.ts writes
// blobs. isomorphic-git hashes through crypto.subtle and deflates through a CompressionStream: both
// settle in a later turn of the event loop (the thread pool, then stream ticks), and a commit of one
// note writes three objects, so on a gateway busy with answers each of those steps queued behind a
// turn of their work. The bytes are isomorphic-git's own (its tree order and modes, its commit
// layout), so an unchanged tree still hashes to the id it had (test/git/write-object.test.ts).
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import git, { type TreeEntry } from 'isomorphic-git';
import type { GitAuthor, GitRepo } from './repo.ts';

/**
 * zlib's fastest level, git's own default for loose objects (core.looseCompression = 1): the merge of
 * 10,000 files spent a third of its CPU deflating the trees it rewrote at the default level 6. The
 * level changes the file's bytes, never the object's id (the hash is of the inflated object).
 */
export const LOOSE_COMPRESSION = { level: 1 };

/** A git object's id: the SHA-1 of its header and body. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer): { oid: string; wrapped: Buffer } {
  const wrapped = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  return { oid: createHash('sha1').update(wrapped).digest('hex'), wrapped };
}

async function writeLoose(repo: GitRepo, type: 'tree' | 'commit', body: Buffer): Promise<string> {
  const { oid, wrapped } = objectId(type, body);
  await git.writeObject({ fs: repo.fs, gitdir: repo.gitdir, type, object: deflateSync(wrapped, LOOSE_COMPRESSION), format: 'deflated', oid });
  return oid;
}

/**
 * Writes a tree of entries (modes as isomorphic-git gives them: '040000', '100644', ...); returns its id.
 * Git's order: by the UTF-8 bytes of the names, a tree's name compared as if it ended in '/' (a
 * comparison of JavaScript strings put a name above U+FFFF before one from U+E000 to U+FFFF). The body
 * is written into one buffer: two small buffers per entry were most of a 10,000-file merge's tree writing.
 */
export function writeTreeObject(repo: GitRepo, entries: TreeEntry[]): Promise<string> {
  const rows = entries.map((e) => ({ e, key: Buffer.from(e.type === 'tree' ? `${e.path}/` : e.path, 'utf8') }));
  rows.sort((a, b) => Buffer.compare(a.key, b.key));
  const modes = rows.map(({ e }) => e.mode.replace(/^0/, ''));
  const body = Buffer.allocUnsafe(rows.reduce((n, { key }, i) => n + modes[i]!.length + key.length + 22, 0));
  let at = 0;
  for (const [i, { e, key }] of rows.entries()) {
    at += body.write(modes[i]!, at, 'latin1');
    body[at++] = 32;
    at += key.copy(body, at, 0, e.type === 'tree' ? key.length - 1 : key.length);
    body[at++] = 0;
    at += body.write(e.oid, at, 'hex');
  }
  return writeLoose(repo, 'tree', body.subarray(0, at));
}

/** `name <email> seconds +0000`, as isomorphic-git renders an author at time zone offset 0. */
const person = (a: GitAuthor) => `${a.name} <${a.email}> ${a.timestamp} +0000`;

/** The message as isomorphic-git keeps it: no CR, no leading newlines, one newline at the end. */
const normalized = (message: string) => `${message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;

/** Writes a commit (author and committer alike, time zone UTC); returns its id. */
export function writeCommitObject(repo: GitRepo, c: { tree: string; parents: string[]; author: GitAuthor; message: string }): Promise<string> {
  const head = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${person(c.author)}`, `committer ${person(c.author)}`].join('\n');
  return writeLoose(repo, 'commit', Buffer.from(`${head}\n\n${normalized(c.message)}`, 'utf8'));
}
