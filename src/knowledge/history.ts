// History of an item or of the whole model, and reverts; a revert is a new commit by the acting user.
import type { Principal } from '../auth/index.ts';
import { commitChanges, commitExists, diffRefs, history, readFile, type CommitInfo } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { CommitNotFound } from './errors.ts';
import { checkedPath } from './items.ts';
import type { Kind } from './kinds.ts';
import { mirrorAfterChange } from './mirror.ts';
import { authorOf, readScope, writeScope } from './scope.ts';

/** A commit as the API shows it. */
export function commitView(c: CommitInfo) {
  return { commit: c.oid, message: c.message, author: { name: c.author.name, email: c.author.email }, date: new Date(c.author.timestamp * 1000).toISOString(), parents: c.parents };
}

/** Commits that changed one item, newest first. */
export async function itemHistory(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, id: string, limit = 100) {
  const path = checkedPath(kind, id);
  const scope = await readScope(deps, p, envId);
  return { path, commits: (await history({ repo: scope.repo, ref: scope.branch, path, depth: limit })).map(commitView) };
}

/** Commits of the whole model, newest first. */
export async function modelHistory(deps: KnowledgeDeps, p: Principal, envId: string | undefined, limit = 100) {
  const scope = await readScope(deps, p, envId);
  return { commits: (await history({ repo: scope.repo, ref: scope.branch, depth: limit })).map(commitView) };
}

/** Restores one item to its content at `commit` (deleting it if it did not exist then). */
export async function revertItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, id: string, commit: string) {
  const path = checkedPath(kind, id);
  const scope = await writeScope(deps, p, envId);
  if (!(await commitExists({ repo: scope.repo, oid: commit }))) throw new CommitNotFound();
  const content = (await readFile({ repo: scope.repo, ref: commit, path })) ?? null;
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: `Revert ${path} to ${commit.slice(0, 7)}`,
    changes: [{ path, content }],
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
  return { commit: result.oid, changed: result.changed };
}

/** Restores the whole model to its state at `commit`. */
export async function revertModel(deps: KnowledgeDeps, p: Principal, envId: string | undefined, commit: string) {
  const scope = await writeScope(deps, p, envId);
  if (!(await commitExists({ repo: scope.repo, oid: commit }))) throw new CommitNotFound();
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: `Revert knowledge to ${commit.slice(0, 7)}`,
    changes: async (parent) => {
      if (!parent) return [];
      const diff = await diffRefs({ repo: scope.repo, from: parent, to: commit });
      return Promise.all(diff.map(async (d) => ({ path: d.path, content: d.status === 'deleted' ? null : ((await readFile({ repo: scope.repo, ref: commit, path: d.path })) ?? null) })));
    },
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
  return { commit: result.oid, changed: result.changed };
}
