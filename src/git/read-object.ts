// Trees, commits and blobs read from loose objects with Node's zlib and SHA-1, in the caller's turn of
// the event loop. isomorphic-git reads a loose object through the file system (durable-fs.ts, which
// inflates it and checks its hash, to tell a torn object from a sound one), then inflates it again
// through a DecompressionStream and hashes it again through crypto.subtle: two more trips through the
// thread pool per object, each waiting for a whole turn of the answers' work on a busy gateway (issue
// 38). Here the one checked read is the only one. Undeltified objects in packs (an import's,
// write-pack.ts) are read the same way (read-packed.ts); deltas (an operator's `git gc`, a clone) and
// ids found nowhere go to isomorphic-git as before, which also throws its own errors for them
// (NotFoundError). Trees are parsed as isomorphic-git parses them: same modes, same order, and
// the same refusal of entry names git refuses.
import { join } from 'node:path';
import git, { Errors, type TreeEntry } from 'isomorphic-git';
import { ObjectDamaged } from './errors.ts';
import { readPacked } from './read-packed.ts';
import type { GitRepo } from './repo.ts';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const TYPES: Record<string, TreeEntry['type']> = { '040000': 'tree', '100644': 'blob', '100755': 'blob', '120000': 'blob', '160000': 'commit' };

/** The object's type and body, loose or packed undeltified; undefined when isomorphic-git is to read it. */
async function readLoose(repo: GitRepo, oid: string): Promise<{ type: string; body: Buffer } | undefined> {
  // A pack read before answers without a file system call; a failed loose read cost as much again.
  const packed = repo.packs.size > 0 ? await readPacked(repo, oid, true) : undefined;
  if (packed) return packed;
  let object: Buffer;
  try {
    object = await repo.dfs.readObject(join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), oid);
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes((err as { code?: string }).code ?? '')) return readPacked(repo, oid);
    throw err;
  }
  const space = object.indexOf(32);
  const nul = object.indexOf(0, space);
  const body = object.subarray(nul + 1);
  if (space < 0 || nul < 0 || Number(object.toString('latin1', space + 1, nul)) !== body.length) throw new ObjectDamaged(oid);
  return { type: object.toString('latin1', 0, space), body };
}

/** A name git refuses in a tree (its verify_path, as isomorphic-git checks it). */
function unsafeName(path: string): boolean {
  const hfsClean = path.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, '');
  const normalized = hfsClean.split(':')[0]!.toLowerCase().replace(/[. ]+$/, '');
  return path.includes('\\') || path.includes('/') || hfsClean === '.' || hfsClean === '..' || normalized === '.git' || /^\.?git~[1-9]$/.test(normalized);
}

/** A tree's entries, ordered by the UTF-8 bytes of their names as isomorphic-git orders them. */
export function parseTree(body: Buffer): TreeEntry[] {
  const entries: (TreeEntry & { key: Buffer })[] = [];
  for (let cursor = 0; cursor < body.length; ) {
    const space = body.indexOf(32, cursor);
    const nul = body.indexOf(0, cursor);
    if (space < 0 || nul < 0) throw new Errors.InternalError(`GitTree: Error parsing buffer at byte location ${cursor}`);
    let mode = body.toString('latin1', cursor, space);
    if (mode === '40000') mode = '040000';
    const type = TYPES[mode];
    if (!type) throw new Errors.InternalError(`Unexpected GitTree entry mode: ${mode}`);
    const path = body.toString('utf8', space + 1, nul);
    if (unsafeName(path)) throw new Errors.UnsafeFilepathError(path);
    entries.push({ mode, path, oid: body.toString('hex', nul + 1, nul + 21), type, key: Buffer.from(path, 'utf8') });
    cursor = nul + 21;
  }
  entries.sort((a, b) => Buffer.compare(a.key, b.key));
  return entries.map(({ mode, path, oid, type }) => ({ mode, path, oid, type }));
}

/** The tree id a commit's body names. */
function treeOfCommit(oid: string, body: Buffer): string {
  const end = body.indexOf('\n\n');
  const m = /^tree ([0-9a-f]{40})$/m.exec(body.toString('utf8', 0, end < 0 ? body.length : end));
  if (!m) throw new ObjectDamaged(oid);
  return m[1]!;
}

/** The entries of a tree (a commit's id gives its tree's, as isomorphic-git's readTree does). */
export async function readTreeObject(repo: GitRepo, oid: string): Promise<TreeEntry[]> {
  if (oid === EMPTY_TREE) return [];
  const o = await readLoose(repo, oid);
  // An annotated tag is peeled by isomorphic-git.
  if (!o || o.type === 'tag') return (await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).tree;
  if (o.type === 'commit') return readTreeObject(repo, treeOfCommit(oid, o.body));
  if (o.type !== 'tree') throw new Errors.ObjectTypeError(oid, o.type as 'blob', 'tree');
  return parseTree(o.body);
}

/** The root tree of a commit. */
export async function readCommitTree(repo: GitRepo, oid: string): Promise<string> {
  const o = await readLoose(repo, oid);
  if (!o) return (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit.tree;
  if (o.type !== 'commit') throw new Errors.ObjectTypeError(oid, o.type as 'blob', 'commit');
  return treeOfCommit(oid, o.body);
}

/** A blob's bytes. */
export async function readBlobObject(repo: GitRepo, oid: string): Promise<Buffer> {
  const o = await readLoose(repo, oid);
  if (!o || o.type === 'tag') return Buffer.from((await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob);
  if (o.type !== 'blob') throw new Errors.ObjectTypeError(oid, o.type as 'tree', 'blob');
  return o.body;
}

/** The parents a commit names, in order. */
export async function readCommitParents(repo: GitRepo, oid: string): Promise<string[]> {
  const o = await readLoose(repo, oid);
  if (!o) return (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit.parent;
  if (o.type !== 'commit') throw new Errors.ObjectTypeError(oid, o.type as 'blob', 'commit');
  const end = o.body.indexOf('\n\n');
  return [...o.body.toString('utf8', 0, end < 0 ? o.body.length : end).matchAll(/^parent ([0-9a-f]{40})$/gm)].map((m) => m[1]!);
}
