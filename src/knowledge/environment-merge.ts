// Diff against production, conflict prediction and merge into production. Prediction is the merge
// itself with dryRun, so what it predicts is what the merge meets.
import { canMergeToProduction, type Principal } from '../auth/index.ts';
import { diffRefs, MAIN_BRANCH, mergeBase, mergeBranch, type FileDiff } from '../git/index.ts';
import { conflictDetails, type ConflictDetail } from './conflict-details.ts';
import type { KnowledgeDeps } from './deps.ts';
import { withLines, type FileDiffWithLines } from './diff-lines.ts';
import { dropEnvironment } from './environments.ts';
import { MergeConflicts, MergeForbidden, requireConfirm } from './errors.ts';
import { envBranch, touchEnvironment } from './environments-store.ts';
import { mirrorEnvironment, mirrorProduction } from './mirror.ts';
import { authorOf, environmentOf, requireEnvironmentRole } from './scope.ts';

/** Files the environment changed since it forked from production (or last took production's changes). */
export async function environmentDiff(deps: KnowledgeDeps, p: Principal, id: string, opts: { lines?: boolean } = {}): Promise<{ files: FileDiff[] | FileDiffWithLines[] }> {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  await touchEnvironment(deps.store, p.orgId, env.id, deps.clock.now());
  const repo = await deps.repos.repo(p.orgId);
  const base = (await mergeBase({ repo, a: MAIN_BRANCH, b: envBranch(env) })) ?? MAIN_BRANCH;
  const files = await diffRefs({ repo, from: base, to: envBranch(env) });
  return { files: opts.lines ? await withLines(repo, base, envBranch(env), files) : files };
}

/** Predicts the merge into production without moving any ref; with `details`, each conflicting file's versions. */
export async function environmentConflicts(deps: KnowledgeDeps, p: Principal, id: string, opts: { details?: boolean } = {}) {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  await touchEnvironment(deps.store, p.orgId, env.id, deps.clock.now());
  const repo = await deps.repos.repo(p.orgId);
  const outcome = await mergeBranch({ repo, from: envBranch(env), into: MAIN_BRANCH, author: await authorOf(deps, p), dryRun: true, fastForward: false });
  const conflicts = outcome.status === 'conflict' ? outcome.conflicts : [];
  const files: { files?: ConflictDetail[] } = opts.details ? { files: await conflictDetails(repo, envBranch(env), conflicts) } : {};
  return { mergeable: outcome.status !== 'conflict', merge: outcome.status, conflicts, ...files };
}

/** Decides on a merge once it is allowed: throws to refuse it, or returns a paragraph for the merge commit message. */
export type MergeGate = (environmentId: string) => Promise<string | undefined>;

/**
 * Merges the environment into production: admins, or modelers with the merge permission, with
 * `confirm` true, then `gate` (the organization's evaluation gate) when given. Conflicts answer 409
 * with the files. A throwaway environment (or one merged with `delete_after`) is deleted once applied.
 */
export async function mergeEnvironment(deps: KnowledgeDeps, p: Principal, id: string, body: { confirm?: unknown; delete_after?: boolean }, gate?: MergeGate) {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  if (!canMergeToProduction(p)) throw new MergeForbidden();
  requireConfirm(body.confirm, 'body');
  const note = gate ? await gate(env.id) : undefined;
  const repo = await deps.repos.repo(p.orgId);
  const outcome = await mergeBranch({
    repo,
    from: envBranch(env),
    into: MAIN_BRANCH,
    author: await authorOf(deps, p),
    message: [`Merge environment "${env.name}" into production`, note].filter(Boolean).join('\n\n'),
    // Always a merge commit, so production's history says who merged (a fast-forward records no one).
    fastForward: false,
  });
  if (outcome.status === 'conflict') throw new MergeConflicts(outcome.conflicts);
  const deleted = env.throwaway === 1 || body.delete_after === true;
  await mirrorProduction(deps, p.orgId);
  if (deleted) await dropEnvironment(deps, env);
  else {
    await touchEnvironment(deps.store, p.orgId, env.id, deps.clock.now());
    await mirrorEnvironment(deps, p.orgId, env);
  }
  return { merge: outcome.status, commit: outcome.oid ?? null, deleted };
}
