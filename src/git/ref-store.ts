// Refs read and written the way git does it, not through isomorphic-git's writeRef (an in-place
// rewrite, no compare-and-swap, no reflog): a `<ref>.lock` file created exclusively, the old value
// compared, the new value fsynced, a rename over the ref, a reflog line appended. A crash at any
// instant leaves the old ref or the new one, never an empty file; the loose objects the new commit
// needs are fsynced first (DurableFs.flush), so a ref never names an object that is not on disk.
import { dirname, join } from 'node:path';
import git from 'isomorphic-git';
import { RefDamaged, RefLocked } from './errors.ts';
import type { GitAuthor, GitRepo } from './repo.ts';

const OID = /^[0-9a-f]{40}$/;
const ZERO = '0'.repeat(40);

/** One line of a reflog. */
export interface ReflogEntry {
  old: string;
  new: string;
  name: string;
  email: string;
  timestamp: number;
  message: string;
}

const refPath = (repo: GitRepo, ref: string) => join(repo.gitdir, ref);
const logPath = (repo: GitRepo, ref: string) => join(repo.gitdir, 'logs', ref);
const codeOf = (err: unknown) => (err as { code?: string }).code;

/** The commit a full ref names, null when it does not exist; throws RefDamaged when its file is unreadable. */
export async function readRefValue(repo: GitRepo, ref: string, depth = 0): Promise<string | null> {
  let text: string;
  try {
    text = String(await repo.dfs.io.readFile(refPath(repo, ref), 'utf8'));
  } catch (err) {
    if (!['ENOENT', 'EISDIR', 'ENOTDIR'].includes(codeOf(err) ?? '')) throw err;
    return packedRef(repo, ref);
  }
  const value = text.trim();
  if (OID.test(value)) return value;
  if (value.startsWith('ref: ') && depth < 5) return readRefValue(repo, value.slice(5), depth + 1);
  throw new RefDamaged(ref, text.length === 0 ? 'its file is empty' : 'its file does not hold a commit id');
}

/**
 * What identifies the ref's current file without reading it: a ref is replaced by a rename of a new
 * file, so any move (by this process or another) changes its inode or modification time. A missing
 * file stands for the packed ref, identified the same way by packed-refs.
 */
export async function refStamp(repo: GitRepo, ref: string): Promise<string> {
  const stamp = (path: string) => repo.dfs.io.stat(path).then(stampOf, () => undefined);
  return (await stamp(refPath(repo, ref))) ?? `packed ${(await stamp(join(repo.gitdir, 'packed-refs'))) ?? 'none'}`;
}

// Not the change time: the rename that turns the lock file into the ref changes it.
function stampOf(s: { size: number }): string {
  const t = s as unknown as { ino: number; mtimeMs: number };
  return `${t.ino}:${s.size}:${t.mtimeMs}`;
}

// Refs packed by an operator's `git gc` or `git pack-refs`; the service itself never packs.
async function packedRef(repo: GitRepo, ref: string): Promise<string | null> {
  let text: string;
  try {
    text = String(await repo.dfs.io.readFile(join(repo.gitdir, 'packed-refs'), 'utf8'));
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && OID.test(oid)) return oid;
  }
  return null;
}

/**
 * Points `ref` at `oid` if it still holds `expected` (null: must not exist; undefined: any value,
 * even a damaged one, for recovery), recording `who` and `message` in the reflog. Returns the new
 * ref file's stamp (see refStamp), or undefined when the ref held something else (nothing is written then).
 */
export async function updateRef(repo: GitRepo, ref: string, oid: string, a: { expected?: string | null; who: GitAuthor; message: string }): Promise<string | undefined> {
  return withRefLock(repo, ref, async (lock) => {
    let current: string | null = null;
    try {
      current = await readRefValue(repo, ref);
    } catch (err) {
      if (!(err instanceof RefDamaged) || a.expected !== undefined) throw err;
    }
    if (a.expected !== undefined && current !== a.expected) return undefined;
    // The new objects reach the disk (under their names) with the new value, before the lock becomes
    // the ref; then the folders holding the renames and the reflog line are synced together before
    // the caller hears of it. A power loss in between loses only this unacknowledged write: a ref
    // whose commit does not read back is restored from the reflog at start-up. The reflog line comes
    // after the objects it names (git fsck holds a reflog entry to a missing object for an error).
    const [dirs] = await Promise.all([repo.dfs.flush(), writeAndSync(lock, `${oid}\n`)]);
    // Stamped while it is still this writer's own lock file: once renamed, another process may replace it.
    const stamp = stampOf(await repo.dfs.io.stat(lock.path));
    await repo.dfs.io.rename(lock.path, refPath(repo, ref));
    await Promise.all([repo.dfs.syncDirs([...dirs, dirname(refPath(repo, ref))]), appendReflog(repo, ref, { old: current ?? ZERO, new: oid, ...a.who, message: a.message })]);
    return stamp;
  });
}

/** Deletes a ref and its reflog (the reflog first: a crash in between leaves the ref, never a reflog without it). */
export async function deleteRefFile(repo: GitRepo, ref: string): Promise<void> {
  await withRefLock(repo, ref, async () => {
    await repo.dfs.io.unlink(logPath(repo, ref)).catch((err: unknown) => {
      if (codeOf(err) !== 'ENOENT') throw err;
    });
    // Also drops the ref from packed-refs when an operator packed it.
    await git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
  });
}

/** The reflog of a ref, oldest first; malformed lines (a torn last line) are skipped. */
export async function readReflog(repo: GitRepo, ref: string): Promise<ReflogEntry[]> {
  let text: string;
  try {
    text = String(await repo.dfs.io.readFile(logPath(repo, ref), 'utf8'));
  } catch {
    return [];
  }
  const out: ReflogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.*) <([^>]*)> (\d+) [+-]\d{4}\t(.*)$/.exec(line);
    if (m) out.push({ old: m[1]!, new: m[2]!, name: m[3]!, email: m[4]!, timestamp: Number(m[5]), message: m[6]! });
  }
  return out;
}

/** True when the ref's file or its reflog exists, whatever they hold. */
export async function refHasHistory(repo: GitRepo, ref: string): Promise<boolean> {
  const exists = (p: string) => repo.dfs.io.stat(p).then(() => true, () => false);
  return (await exists(refPath(repo, ref))) || (await exists(logPath(repo, ref))) || (await packedRef(repo, ref)) !== null;
}

interface LockFile {
  path: string;
  handle: { writeFile(d: string): Promise<void>; sync(): Promise<void>; close(): Promise<void> };
}

async function withRefLock<T>(repo: GitRepo, ref: string, fn: (lock: LockFile) => Promise<T>): Promise<T> {
  const path = `${refPath(repo, ref)}.lock`;
  await repo.dfs.io.mkdir(dirname(path), { recursive: true });
  let handle;
  try {
    handle = await repo.dfs.io.open(path, 'wx', 0o644);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') throw new RefLocked(ref);
    throw err;
  }
  try {
    return await fn({ path, handle });
  } finally {
    await handle.close().catch(() => undefined);
    // After an update the lock file has become the ref (ENOENT here); otherwise it is removed.
    await repo.dfs.io.unlink(path).catch(() => undefined);
  }
}

async function writeAndSync(lock: LockFile, text: string): Promise<void> {
  await lock.handle.writeFile(text);
  await lock.handle.sync();
}

async function appendReflog(repo: GitRepo, ref: string, e: ReflogEntry): Promise<void> {
  const path = logPath(repo, ref);
  await repo.dfs.io.mkdir(dirname(path), { recursive: true });
  const clean = (s: string) => s.replace(/[\n\r<>]/g, ' ');
  const line = `${e.old} ${e.new} ${clean(e.name)} <${clean(e.email)}> ${e.timestamp} +0000\t${clean(e.message.split('\n')[0] ?? '')}\n`;
  const h = await repo.dfs.io.open(path, 'a', 0o644);
  try {
    await h.writeFile(line);
    await h.sync();
  } finally {
    await h.close();
  }
}
