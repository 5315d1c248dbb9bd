// Which branch a request reads or writes (interface part 4 "Environments", part 5 "Permissions"):
// regular users always see production and change nothing; admins and modelers work in environments;
// writing production directly needs the merge permission, like merging does, and is refused to
// everyone where the organization changes production only through environments (its setting).
import { canMergeToProduction, hasRole, type Principal } from '../auth/index.ts';
import { MAIN_BRANCH, type GitAuthor, type GitRepo } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { EnvironmentNotFound, EnvironmentsForbidden, KnowledgeReadOnly, ProductionThroughEnvironments } from './errors.ts';
import { envBranch, findEnvironment, touchEnvironment, type EnvironmentRow } from './environments-store.ts';

/** A resolved place in an organization's knowledge. */
export interface Scope {
  orgId: string;
  repo: GitRepo;
  branch: string;
  /** Undefined for production. */
  env: EnvironmentRow | undefined;
}

/** The environment of the organization, or 404 (also for another organization's environment). */
export async function environmentOf(deps: KnowledgeDeps, orgId: string, envId: string): Promise<EnvironmentRow> {
  const env = await findEnvironment(deps.store, orgId, envId);
  if (!env) throw new EnvironmentNotFound();
  return env;
}

/** Scope of a read by `orgId` at an environment, with no role rule (internal callers). */
export async function scopeFor(deps: KnowledgeDeps, orgId: string, envId: string | undefined): Promise<Scope> {
  const env = envId ? await environmentOf(deps, orgId, envId) : undefined;
  if (env) await touchEnvironment(deps.store, orgId, env.id, deps.clock.now());
  return { orgId, repo: await deps.repos.repo(orgId), branch: env ? envBranch(env) : MAIN_BRANCH, env };
}

/** The environment a caller's request reads: regular users always get production (undefined). */
export function effectiveEnvironment(p: Principal, envId: string | undefined): string | undefined {
  return hasRole(p, 'modeler') ? envId : undefined;
}

/** Scope of a read: regular users see production whatever the header says. */
export function readScope(deps: KnowledgeDeps, p: Principal, envId: string | undefined): Promise<Scope> {
  return scopeFor(deps, p.orgId, effectiveEnvironment(p, envId));
}

/**
 * Scope of a write: admins and modelers; production directly only with the merge permission, and
 * only while the organization lets production be changed outside environments.
 */
export async function writeScope(deps: KnowledgeDeps, p: Principal, envId: string | undefined): Promise<Scope> {
  if (!hasRole(p, 'modeler')) throw new KnowledgeReadOnly();
  if (!envId) {
    await assertProductionWritable(deps, p.orgId);
    if (!canMergeToProduction(p)) throw new KnowledgeReadOnly('Change production through an environment, or ask for the merge permission');
  }
  return scopeFor(deps, p.orgId, envId);
}

/** Refuses a direct write to production when the organization changes it only through environments (merges are not writes). */
export async function assertProductionWritable(deps: KnowledgeDeps, orgId: string): Promise<void> {
  if (await deps.productionThroughEnvironments(orgId)) throw new ProductionThroughEnvironments();
}

/** Environments endpoints are for admins and modelers. */
export function requireEnvironmentRole(p: Principal): void {
  if (!hasRole(p, 'modeler')) throw new EnvironmentsForbidden();
}

/** The commit author for the acting user. */
export async function authorOf(deps: KnowledgeDeps, p: Principal): Promise<GitAuthor> {
  return { name: (await deps.userName(p.userId)) || p.email, email: p.email, timestamp: Math.floor(deps.clock.now() / 1000) };
}
