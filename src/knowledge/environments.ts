// Environments: list, create (lasting or throwaway), keep, targets and delete. Each one is a branch
// of the organization's repository forked from production or from another environment.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import { commitChanges, createBranch, deleteBranch, MAIN_BRANCH, resolveRef } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { EnvironmentNameTaken, EnvironmentNotFound, requireConfirm } from './errors.ts';
import {
  environmentNamed,
  envBranch,
  findEnvironment,
  freeSlug,
  insertEnvironment,
  listEnvironmentRows,
  mirrorBranch,
  parseTargets,
  removeEnvironment,
  touchEnvironment,
  updateEnvironment,
  type EnvironmentRow,
  type EnvironmentTarget,
} from './environments-store.ts';
import { slugify } from './kinds.ts';
import { mirrorEnvironment, mirrorOf } from './mirror.ts';
import { authorOf, environmentOf, requireEnvironmentRole } from './scope.ts';

/** A throwaway environment is deleted after this long without activity. */
export const THROWAWAY_IDLE_MS = 7 * 24 * 3600 * 1000;

/** An environment as the API shows it. */
export interface EnvironmentView {
  id: string;
  name: string;
  color: string;
  source_env_id: string | null;
  throwaway: boolean;
  /** `service/env-<slug>` when mirroring is on and the environment is lasting. */
  git_branch: string | null;
  targets: Record<string, EnvironmentTarget>;
  created_by: string | null;
  created_at: string;
  last_activity_at: string;
  /** When a throwaway environment expires if left idle. */
  expires_at: string | null;
}

/** The API view of an environment, given whether its organization mirrors to a remote. */
function environmentView(env: EnvironmentRow, mirroring: boolean): EnvironmentView {
  const mirrored = !env.throwaway && mirroring;
  return {
    id: env.id,
    name: env.name,
    color: env.color,
    source_env_id: env.source_env_id,
    throwaway: env.throwaway === 1,
    git_branch: mirrored ? mirrorBranch(env) : null,
    targets: parseTargets(env),
    created_by: env.created_by,
    created_at: new Date(env.created_at).toISOString(),
    last_activity_at: new Date(env.last_activity_at).toISOString(),
    expires_at: env.throwaway ? new Date(env.last_activity_at + THROWAWAY_IDLE_MS).toISOString() : null,
  };
}

async function viewOf(deps: KnowledgeDeps, env: EnvironmentRow): Promise<EnvironmentView> {
  return environmentView(env, (await mirrorOf(deps, env.org_id)) !== undefined);
}

/** Environments of the caller's organization (admins and modelers). */
export async function listEnvironments(deps: KnowledgeDeps, p: Principal): Promise<EnvironmentView[]> {
  requireEnvironmentRole(p);
  const mirroring = (await mirrorOf(deps, p.orgId)) !== undefined;
  return (await listEnvironmentRows(deps.store, p.orgId)).map((e) => environmentView(e, mirroring));
}

/** One environment (admins and modelers); 404 for unknown ids and other organizations' environments. */
export async function getEnvironment(deps: KnowledgeDeps, p: Principal, id: string): Promise<EnvironmentView> {
  requireEnvironmentRole(p);
  return viewOf(deps, await environmentOf(deps, p.orgId, id));
}

export interface CreateEnvironmentInput {
  name: string;
  color: string;
  source_env_id?: string | null;
}

/**
 * Creates a lasting environment forked from production or `source_env_id` (admins and modelers). A
 * taken name answers 409, or with `numberIfTaken` (a name the service made up) becomes `name (2)`...
 */
export async function createEnvironment(deps: KnowledgeDeps, p: Principal, input: CreateEnvironmentInput, opts: { numberIfTaken?: boolean } = {}): Promise<EnvironmentView> {
  requireEnvironmentRole(p);
  return viewOf(deps, await forkEnvironment(deps, p, { ...input, throwaway: false, numberIfTaken: opts.numberIfTaken === true }));
}

/**
 * Starts a throwaway environment for a quick-fix (root-agent) session from production: forked from
 * production, never mirrored, deleted after 7 idle days or once applied to production.
 */
export async function startQuickFixEnvironment(deps: KnowledgeDeps, p: Principal, input: { name?: string; color?: string } = {}): Promise<EnvironmentView> {
  requireEnvironmentRole(p);
  const name = input.name ?? `Quick fix ${new Date(deps.clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`;
  return viewOf(deps, await forkEnvironment(deps, p, { name, color: input.color ?? '#9e9e9e', throwaway: true, numberIfTaken: true }));
}

/** "Keep it": a throwaway environment becomes lasting (and is mirrored when mirroring is on). */
export async function keepEnvironment(deps: KnowledgeDeps, p: Principal, id: string): Promise<EnvironmentView> {
  requireEnvironmentRole(p);
  const kept = await updateEnvironment(deps.store, p.orgId, id, { throwaway: 0 }, deps.clock.now());
  if (!kept) throw new EnvironmentNotFound();
  await mirrorEnvironment(deps, p.orgId, kept);
  return viewOf(deps, kept);
}

/** Replaces the environment's warehouse target overrides. */
export async function setTargets(deps: KnowledgeDeps, p: Principal, id: string, targets: Record<string, EnvironmentTarget>): Promise<EnvironmentView> {
  requireEnvironmentRole(p);
  const env = await updateEnvironment(deps.store, p.orgId, id, { targets: JSON.stringify(targets) }, deps.clock.now());
  if (!env) throw new EnvironmentNotFound();
  return viewOf(deps, env);
}

/** Deletes an environment and its branch (and its mirrored branch); `confirm` must be true. */
export async function deleteEnvironment(deps: KnowledgeDeps, p: Principal, id: string, confirm: unknown): Promise<void> {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  requireConfirm(confirm, 'query');
  await dropEnvironment(deps, env);
}

/** Removes an environment without permission checks (expiry, after merge). */
export async function dropEnvironment(deps: KnowledgeDeps, env: EnvironmentRow): Promise<void> {
  await mirrorEnvironment(deps, env.org_id, env, true);
  await deleteBranch({ repo: await deps.repos.repo(env.org_id), branch: envBranch(env) });
  await removeEnvironment(deps.store, env.org_id, env.id);
}

async function forkEnvironment(
  deps: KnowledgeDeps,
  p: Principal,
  input: { name: string; color: string; source_env_id?: string | null; throwaway: boolean; numberIfTaken: boolean },
): Promise<EnvironmentRow> {
  const source = input.source_env_id ? await findEnvironment(deps.store, p.orgId, input.source_env_id) : undefined;
  if (input.source_env_id && !source) {
    throw new ValidationFailed([{ loc: ['body', 'source_env_id'], msg: 'Unknown environment', type: 'value_error' }]);
  }
  // A made-up name (a quick fix started in the same minute as another) gets "(2)"; a chosen one must be
  // free. Compatibility forms (fullwidth letters, ligatures) are folded first, so that a name cannot
  // look like another's and still count as different.
  const folded = input.name.normalize('NFKC');
  const name = input.numberIfTaken ? await freeName(deps, p.orgId, folded) : folded;
  if (!input.numberIfTaken && (await environmentNamed(deps.store, p.orgId, name))) throw new EnvironmentNameTaken(name);
  const repo = await deps.repos.repo(p.orgId);
  // An organization without knowledge yet gets an empty first commit on production to fork from.
  if (!(await resolveRef({ repo, ref: MAIN_BRANCH }))) {
    await commitChanges({ repo, branch: MAIN_BRANCH, author: await authorOf(deps, p), message: 'Start knowledge', changes: [] });
  }
  const now = deps.clock.now();
  const id = `env_${randomBytes(8).toString('hex')}`;
  const base = input.throwaway ? `quick-fix-${id.slice(4, 12)}` : slugify(folded);
  const fields = {
    id,
    org_id: p.orgId,
    name,
    color: input.color,
    source_env_id: source?.id ?? null,
    throwaway: input.throwaway ? 1 : 0,
    targets: source?.targets ?? '{}',
    created_by: p.userId,
    created_at: now,
    last_activity_at: now,
  };
  // The branch comes first: a row never names a branch that is missing. A failed insert takes the
  // new branch away again, so no orphan branch is left behind.
  await createBranch({ repo, branch: envBranch(fields), from: source ? envBranch(source) : MAIN_BRANCH });
  const row = await insertWithFreeSlug(deps, fields, base).catch(async (err: unknown) => {
    await deleteBranch({ repo, branch: envBranch(fields) });
    throw err;
  });
  if (source) await touchEnvironment(deps.store, p.orgId, source.id, now);
  await mirrorEnvironment(deps, p.orgId, row);
  return row;
}

/**
 * Inserts the environment under the first free slug from `base`. Another request (or replica) may
 * take that slug, or the name, between the read and the insert: the unique indexes refuse the second,
 * which picks another slug, or answers 409 for a name now taken.
 */
async function insertWithFreeSlug(deps: KnowledgeDeps, fields: Omit<EnvironmentRow, 'slug'>, base: string): Promise<EnvironmentRow> {
  for (;;) {
    const row = { ...fields, slug: await freeSlug(deps.store, fields.org_id, base) };
    if (await insertEnvironment(deps.store, row)) return row;
    if (await environmentNamed(deps.store, fields.org_id, fields.name)) throw new EnvironmentNameTaken(fields.name);
  }
}

/** `name`, or the first of `name (2)`, `name (3)`... no environment of the organization has. */
async function freeName(deps: KnowledgeDeps, orgId: string, name: string): Promise<string> {
  let candidate = name;
  for (let n = 2; await environmentNamed(deps.store, orgId, candidate); n++) candidate = `${name} (${n})`;
  return candidate;
}
