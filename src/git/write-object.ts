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

/** A git object's id: the SHA-1 of its header and body. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer): { oid: string; wrapped: Buffer } {
  const wrapped = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  return { oid: createHash('sha1').update(wrapped).digest('hex'), wrapped };
}

async function writeLoose(repo: GitRepo, type: 'tree' | 'commit', body: Buffer): Promise<string> {
  const { oid, wrapped } = objectId(type, body);
  await git.writeObject({ fs: repo.fs, gitdir: repo.gitdir, type, object: deflateSync(wrapped), format: 'deflated', oid });
  return oid;
}

// isomorphic-git's order: by name, a tree's name compared as if it ended in '/', as git does.
const sortName = (e: TreeEntry) => (e.type === 'tree' ? `${e.path}/` : e.path);

/** Writes a tree of entries (modes as isomorphic-git gives them: '040000', '100644', ...); returns its id. */
export function writeTreeObject(repo: GitRepo, entries: TreeEntry[]): Promise<string> {
  const sorted = [...entries].sort((a, b) => {
    const [x, y] = [sortName(a), sortName(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const body = Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode.replace(/^0/, '')} ${e.path}\0`), Buffer.from(e.oid, 'hex')]));
  return writeLoose(repo, 'tree', body);
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
