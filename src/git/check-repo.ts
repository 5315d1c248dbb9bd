// The integrity check of a repository, run at start-up (repair on, refs and every object their tips
// reach) and by `npm run knowledge:check` (every object their history reaches too, see
// check-objects.ts). A ref whose file is empty or unreadable, or whose commit cannot be read, is
// restored from the newest reflog entry whose whole tree reads back; if there is none it is reported
// damaged and left for an operator (never replaced by a fresh branch). A damaged object deeper in the
// tree leaves the branch where it is (going back would drop acknowledged writes): it is reported.
import { join } from 'node:path';
import { RefDamaged } from './errors.ts';
import { checkObjects, repairObjects, type ObjectsCheck } from './check-objects.ts';
import { readBlobObject, readCommitTree, readTreeObject } from './read-object.ts';
import { readRefValue, readReflog, updateRef } from './ref-store.ts';
import { branchRef, MAIN_BRANCH, type GitRepo } from './repo.ts';
import { hadHistory, LOST_BRANCH } from './repo-history.ts';

export interface RefCheck {
  ref: string;
  status: 'ok' | 'recovered' | 'damaged';
  /** The commit the ref holds after the check (null when damaged). */
  oid: string | null;
  problem?: string;
}

export interface RepoCheck {
  ok: boolean;
  refs: RefCheck[];
  /** Stale lock and temporary files removed (repair only). */
  removed: string[];
  /** Objects read and verified (from the tips; with `full`, their whole history), what was wrong and what a repair replaced. */
  objects?: ObjectsCheck;
}

const PRODUCTION = branchRef(MAIN_BRANCH);
const RECOVERER = { name: 'Sextant integrity check', email: 'sextant@localhost' };

/** Checks (and with `repair`, restores) a repository's refs and the objects their tips reach; with `full`, their whole history too. */
export async function checkRepo({ repo, repair = false, full = false, now = Date.now() }: { repo: GitRepo; repair?: boolean; full?: boolean; now?: number }): Promise<RepoCheck> {
  // Objects this process wrote for a write that failed are flushed first: only a crash's leftovers go.
  if (repair) await repo.dfs.flush();
  const removed = repair ? await removeStaleFiles(repo) : [];
  const refs: RefCheck[] = [];
  const names = await listRefNames(repo);
  // A production branch gone with its reflog leaves nothing to list: the repository's history tells.
  if (!names.includes(PRODUCTION) && (await hadHistory(repo))) refs.push({ ref: PRODUCTION, status: 'damaged', oid: null, problem: LOST_BRANCH });
  for (const ref of names) {
    const problem = await refProblem(repo, ref);
    if (!problem) {
      refs.push({ ref, status: 'ok', oid: await readRefValue(repo, ref) });
      continue;
    }
    const restored = repair ? await recoverRef(repo, ref, problem, Math.floor(now / 1000)) : undefined;
    refs.push(restored ? { ref, status: 'recovered', oid: restored, problem } : { ref, status: 'damaged', oid: null, problem });
  }
  let objects = await checkObjects(repo, refs, full);
  if (repair && objects.unreadable.length > 0) {
    const repaired = await repairObjects(repo, objects.unreadable);
    if (repaired.length > 0) objects = { ...(await checkObjects(repo, refs, full)), repaired };
  }
  const ok = refs.every((r) => r.status !== 'damaged') && objects.errors.length === 0;
  return { ok, refs, removed, objects };
}

/** Branch refs on disk: ref files, reflogs (a reflog without its ref is a ref that vanished) and packed refs. */
async function listRefNames(repo: GitRepo): Promise<string[]> {
  const names = new Set<string>();
  for (const f of await walk(repo, join(repo.gitdir, 'refs', 'heads'))) if (!f.endsWith('.lock') && !f.includes('/tmp_')) names.add(`refs/heads/${f}`);
  for (const f of await walk(repo, join(repo.gitdir, 'logs', 'refs', 'heads'))) names.add(`refs/heads/${f}`);
  const packed = String(await repo.dfs.io.readFile(join(repo.gitdir, 'packed-refs'), 'utf8').catch(() => ''));
  for (const line of packed.split('\n')) {
    const name = line.split(' ')[1];
    if (name?.startsWith('refs/heads/')) names.add(name);
  }
  return [...names].sort();
}

async function refProblem(repo: GitRepo, ref: string): Promise<string | undefined> {
  let oid: string | null;
  try {
    oid = await readRefValue(repo, ref);
  } catch (err) {
    if (err instanceof RefDamaged) return err.problem;
    throw err;
  }
  if (oid === null) return (await readReflog(repo, ref)).length > 0 ? 'its file is missing but its reflog is not' : 'it does not exist';
  return (await commitReadable(repo, oid, false)) ? undefined : `its commit ${oid} cannot be read`;
}

/** True when the commit and its root tree (with `wholeTree`, every tree and blob under it) read back from disk. */
async function commitReadable(repo: GitRepo, oid: string, wholeTree: boolean): Promise<boolean> {
  try {
    const visit = async (tree: string): Promise<void> => {
      for (const e of await readTreeObject(repo, tree)) {
        if (!wholeTree) continue;
        if (e.type === 'tree') await visit(e.oid);
        else if (e.type === 'blob') await readBlobObject(repo, e.oid);
      }
    };
    await visit(await readCommitTree(repo, oid));
    return true;
  } catch {
    return false;
  }
}

async function recoverRef(repo: GitRepo, ref: string, problem: string, timestamp: number): Promise<string | undefined> {
  const entries = await readReflog(repo, ref);
  for (const e of entries.reverse()) {
    if (/^0{40}$/.test(e.new) || !(await commitReadable(repo, e.new, true))) continue;
    await updateRef(repo, ref, e.new, { who: { ...RECOVERER, timestamp }, message: `recover: ${problem}; restored from the reflog entry of ${new Date(e.timestamp * 1000).toISOString()}` });
    repo.refs.delete(ref);
    return e.new;
  }
  return undefined;
}

// Left by a crash: ref lock files and temporary files of atomic writes. Runs at start-up under the
// repository's cross-process lock, or from the check with the service stopped: no ref is mid-write.
async function removeStaleFiles(repo: GitRepo): Promise<string[]> {
  const removed: string[] = [];
  const drop = async (path: string) => {
    await repo.dfs.io.unlink(path);
    removed.push(path.slice(repo.gitdir.length + 1));
  };
  for (const f of await walk(repo, join(repo.gitdir, 'refs'))) if (f.endsWith('.lock') || /(^|\/)tmp_/.test(f)) await drop(join(repo.gitdir, 'refs', f));
  for (const f of await walk(repo, join(repo.gitdir, 'logs'))) if (/(^|\/)tmp_/.test(f)) await drop(join(repo.gitdir, 'logs', f));
  for (const f of await repo.dfs.io.readdir(repo.gitdir).catch(() => [] as string[])) if (/^tmp_|\.lock$/.test(String(f))) await drop(join(repo.gitdir, String(f)));
  // Names only: a stat of every loose object would cost a start-up thousands of calls.
  const objects = join(repo.gitdir, 'objects');
  for (const dir of (await repo.dfs.io.readdir(objects).catch(() => [] as string[])).map(String).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
    for (const f of (await repo.dfs.io.readdir(join(objects, dir)).catch(() => [] as string[])).map(String)) {
      if (f.startsWith('tmp_') && (await leftLongAgo(repo, join(objects, dir, f)))) await drop(join(objects, dir, f));
    }
  }
  // A pack or its index whose write a crash cut short (write-pack.ts): written only inside a commit,
  // under the repository's lock, like a ref's lock file.
  for (const f of (await repo.dfs.io.readdir(join(objects, 'pack')).catch(() => [] as string[])).map(String)) if (f.startsWith('tmp_')) await drop(join(objects, 'pack', f));
  return removed;
}

/** How old a temporary object file must be before the check takes it for a crash's leftover. */
export const STALE_OBJECT_TMP_MS = 3600_000;

// Unlike ref lock files (written only under the repository's cross-process lock, which the check
// holds), temporary object files are also written without it, by a dry-run merge that predicts
// conflicts, and stay pending until that merge ends. On a data folder shared by replicas a fresh one
// may belong to another live process, so only old ones go. Modification times are the file system's
// wall clock, hence Date.now() rather than the service's clock.
async function leftLongAgo(repo: GitRepo, path: string): Promise<boolean> {
  const stat = await repo.dfs.io.stat(path).catch(() => undefined);
  return stat !== undefined && Date.now() - stat.mtimeMs >= STALE_OBJECT_TMP_MS;
}

/** Files under `dir`, relative and slash-separated, at most `depth` levels down. */
async function walk(repo: GitRepo, dir: string, depth = 16): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await repo.dfs.io.readdir(dir).catch(() => [] as string[])).map(String)) {
    const stat = await repo.dfs.io.lstat(join(dir, name)).catch(() => undefined);
    if (stat?.isDirectory()) {
      if (depth > 1) for (const sub of await walk(repo, join(dir, name), depth - 1)) out.push(`${name}/${sub}`);
    } else if (stat) out.push(name);
  }
  return out;
}
