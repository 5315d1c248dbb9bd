// Whether a repository ever held knowledge, for a production branch that is not there: a repository
// that never had any may start production with a first commit; one that had some has lost its branch
// (its ref and reflog deleted, its folder replaced), and starting production over there would leave the
// old history dangling and every environment unable to merge (design rule 12b). The evidence: another
// branch (or its reflog, or a packed ref), a pack, a loose commit object (damaged objects count: they
// were written), or what the caller knows from outside (the database's environments). Commits and packs
// of a first write that a crash interrupted (its marker still there) are not evidence: nothing of it was
// acknowledged, so kill -9 during an organization's first write leaves a repository that starts again.
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { RefDamaged } from './errors.ts';
import type { GitRepo } from './repo.ts';

/** Why a missing production branch is refused: the repository once held knowledge. */
export const LOST_BRANCH = 'it is missing while the repository holds history (other branches, commits or environments)';

/** True when the repository (or the caller's outside evidence) shows it once held knowledge; a yes is kept. */
export async function hadHistory(repo: GitRepo): Promise<boolean> {
  if (repo.history.known) return true;
  // A first write's pack is no more history than its loose commit.
  const objects = async () => !(await exists(repo, join(repo.gitdir, FIRST_COMMIT))) && ((await hasPacks(repo)) || (await hasCommitObject(repo)));
  const known = (await hasBranchFiles(repo)) || (await objects()) || ((await repo.history.outside?.()) ?? false);
  if (known) repo.history.known = true;
  return known;
}

/**
 * Throws RefDamaged when production is absent from a repository that once held knowledge, unless a
 * write of it is under way (its lock file is there: the first commit's objects precede its ref).
 */
export async function refuseLostProduction(repo: GitRepo, ref: string): Promise<void> {
  if (!(await hadHistory(repo))) return;
  if ((await exists(repo, join(repo.gitdir, `${ref}.lock`))) || (await exists(repo, join(repo.gitdir, ref)))) return;
  throw new RefDamaged(ref, LOST_BRANCH);
}

/** Marks a repository's first commit under way (before its objects are written); call under the write lock. */
export async function beginFirstCommit(repo: GitRepo): Promise<void> {
  await repo.dfs.writeAtomic(join(repo.gitdir, FIRST_COMMIT), `${process.pid}\n`);
}

/** The first commit's branch is in place: from now on its commits are history. */
export async function endFirstCommit(repo: GitRepo): Promise<void> {
  await repo.dfs.io.unlink(join(repo.gitdir, FIRST_COMMIT)).catch(() => undefined);
}

const FIRST_COMMIT = 'sextant-first-commit';
const exists = (repo: GitRepo, p: string) => repo.dfs.io.stat(p).then(() => true, () => false);

async function names(repo: GitRepo, dir: string): Promise<string[]> {
  return (await repo.dfs.io.readdir(dir).catch(() => [] as string[])).map(String);
}

async function hasBranchFiles(repo: GitRepo): Promise<boolean> {
  if ((await names(repo, join(repo.gitdir, 'refs', 'heads'))).some((n) => !n.endsWith('.lock') && !n.startsWith('tmp_'))) return true;
  if ((await names(repo, join(repo.gitdir, 'logs', 'refs', 'heads'))).length > 0) return true;
  const packed = String(await repo.dfs.io.readFile(join(repo.gitdir, 'packed-refs'), 'utf8').catch(() => ''));
  return packed.split('\n').some((line) => line.split(' ')[1]?.startsWith('refs/heads/'));
}

async function hasPacks(repo: GitRepo): Promise<boolean> {
  return (await names(repo, join(repo.gitdir, 'objects', 'pack'))).some((n) => n.endsWith('.pack'));
}

// Stops at the first commit; only a repository that lost its branches has many objects to look at.
async function hasCommitObject(repo: GitRepo): Promise<boolean> {
  const objects = join(repo.gitdir, 'objects');
  for (const dir of (await names(repo, objects)).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
    for (const f of (await names(repo, join(objects, dir))).filter((n) => /^[0-9a-f]{38}$/.test(n))) {
      const data = (await repo.dfs.io.readFile(join(objects, dir, f)).catch(() => undefined)) as Buffer | undefined;
      if (data && isCommitOrUnreadable(data)) return true;
    }
  }
  return false;
}

function isCommitOrUnreadable(data: Buffer): boolean {
  try {
    return inflateSync(data).subarray(0, 7).toString('latin1') === 'commit ';
  } catch {
    return true;
  }
}
