// The objects half of the integrity check: every object reachable from the branch tips (at start-up)
// or from the tips, their reflogs and all their history (the full check), each read back and hashed
// (isomorphic-git checks the hash of what it reads, durable-fs refuses an empty or torn loose object);
// tree entry names go through the path rule. A repair replaces a damaged loose object by another copy
// of it in the repository (a pack an operator's `git gc` or a fetch left); what it cannot replace is
// left as found and named, for an operator to restore from a backup or the mirror. Objects are read as
// the service reads them (read-object.ts: one inflate and one hash each, in the caller's turn; deltas
// through isomorphic-git): through isomorphic-git every object was inflated and hashed twice, and the
// check of the demo's 20 objects took ~100 ms of each start's CPU (issue 38).
import { join } from 'node:path';
import git from 'isomorphic-git';
import { isSoundObject } from './durable-fs.ts';
import { segmentProblem } from './path-name.ts';
import { readBlobObject, readCommitParents, readCommitTree, readTreeObject } from './read-object.ts';
import { readReflog } from './ref-store.ts';
import type { GitRepo } from './repo.ts';

export interface ObjectsCheck {
  checked: number;
  errors: string[];
  warnings: string[];
  /** Ids of the objects that did not read back. */
  unreadable: string[];
  /** Ids of damaged loose objects replaced by another copy (repair only). */
  repaired: string[];
}

/** Reads back every object reachable from `tips` (with `history`, also from their reflogs and parents). */
export async function checkObjects(repo: GitRepo, tips: { ref: string; oid: string | null }[], history: boolean): Promise<ObjectsCheck> {
  const seen = new Set<string>();
  const out: ObjectsCheck = { checked: 0, errors: [], warnings: [], unreadable: [], repaired: [] };
  const roots = new Set(tips.flatMap((r) => (r.oid ? [r.oid] : [])));
  if (history) for (const r of tips) for (const e of await readReflog(repo, r.ref)) if (!/^0{40}$/.test(e.new)) roots.add(e.new);
  const read = async (oid: string, what: string, fn: () => Promise<void>) => {
    if (seen.has(oid)) return;
    seen.add(oid);
    await fn().catch((err: unknown) => {
      out.unreadable.push(oid);
      out.errors.push(`${what} ${oid}: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  const visitTree = async (oid: string, path: string): Promise<void> =>
    read(oid, `tree ${path || '/'}`, async () => {
      for (const e of await readTreeObject(repo, oid)) {
        const problem = segmentProblem(e.path);
        if (problem) out.warnings.push(`${path}${e.path}: ${problem}`);
        if (e.type === 'tree') await visitTree(e.oid, `${path}${e.path}/`);
        else if (e.type === 'blob') await read(e.oid, `blob ${path}${e.path}`, async () => void (await readBlobObject(repo, e.oid)));
      }
    });
  const stack = [...roots];
  while (stack.length > 0) {
    const oid = stack.pop()!;
    await read(oid, 'commit', async () => {
      await visitTree(await readCommitTree(repo, oid), '');
      if (history) stack.push(...(await readCommitParents(repo, oid)));
    });
  }
  out.checked = seen.size;
  return out;
}

/**
 * Replaces each damaged loose object that another copy in the repository holds: the loose file is set
 * aside and the object read again; if it reads, the damaged file goes, otherwise it is put back as it
 * was. Returns the ids replaced. Call under the repository's write lock.
 */
export async function repairObjects(repo: GitRepo, oids: string[]): Promise<string[]> {
  const repaired: string[] = [];
  for (const oid of oids) {
    const file = join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
    const data = await repo.dfs.io.readFile(file).catch(() => undefined);
    if (data === undefined || isSoundObject(oid, data as Buffer)) continue;
    const aside = `${file}.damaged`;
    await repo.dfs.io.rename(file, aside);
    const other = await git.readObject({ fs: repo.fs, gitdir: repo.gitdir, oid }).then(() => true, () => false);
    if (other) {
      await repo.dfs.io.unlink(aside);
      repaired.push(oid);
    } else await repo.dfs.io.rename(aside, file);
  }
  return repaired;
}
