// Mirroring to a git remote: with a remote configured, production is pushed to its main branch and
// each lasting environment to `service/env-<slug>` after every change. Throwaway environments are
// never pushed. A failed push never fails the change; it is logged and shown in the mirror status.
import { sql } from 'kysely';
import { hasRole, type Principal } from '../auth/index.ts';
import { Forbidden, ValidationFailed } from '../errors.ts';
import { MAIN_BRANCH, pushBranch, resolveRef } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { envBranch, listEnvironmentRows, mirrorBranch, type EnvironmentRow } from './environments-store.ts';
import type { Scope } from './scope.ts';

export interface MirrorRow {
  org_id: string;
  url: string;
  username: string;
  secret_sealed: string | null;
  main_branch: string;
  api_base_url: string | null;
  repository: string | null;
  last_push_at: number | null;
  last_push_error: string | null;
  updated_by: string | null;
  updated_at: number;
}

export interface MirrorInput {
  url: string;
  username?: string;
  /** Password or token; omitted keeps the stored one. */
  token?: string;
  main_branch?: string;
  api_base_url?: string | null;
  repository?: string | null;
}

/** The mirror settings of an organization, if any. */
export async function mirrorOf(deps: KnowledgeDeps, orgId: string): Promise<MirrorRow | undefined> {
  return deps.store.one(sql<MirrorRow>`SELECT * FROM knowledge_mirrors WHERE org_id = ${orgId}`);
}

/** What the API shows: never the credential. */
export function mirrorView(row: MirrorRow | undefined) {
  if (!row) return { enabled: false as const };
  return {
    enabled: true as const,
    // Rows saved before credentials in URLs were refused may hold some: never shown.
    url: row.url.replace(/^(https?:\/\/)[^/?#]*@/, '$1'),
    username: row.username,
    has_token: row.secret_sealed !== null,
    main_branch: row.main_branch,
    api_base_url: row.api_base_url,
    repository: row.repository,
    last_push_at: row.last_push_at === null ? null : new Date(row.last_push_at).toISOString(),
    last_push_error: row.last_push_error,
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function requireAdmin(p: Principal): void {
  if (!hasRole(p, 'admin')) throw new Forbidden('Only admins configure mirroring', 'MIRROR_ADMIN_ONLY');
}

/** Reads the mirror settings (admins). */
export async function getMirror(deps: KnowledgeDeps, p: Principal) {
  requireAdmin(p);
  return mirrorView(await mirrorOf(deps, p.orgId));
}

/** Sets the remote (admins), then pushes production once so the mirror starts complete. */
export async function setMirror(deps: KnowledgeDeps, p: Principal, input: MirrorInput) {
  requireAdmin(p);
  const old = await mirrorOf(deps, p.orgId);
  // A stored token goes only to the host it was given for: a new host needs it again.
  if (input.token === undefined && old?.secret_sealed && originOf(old.url) !== originOf(input.url)) {
    throw new ValidationFailed([{ loc: ['body', 'token'], msg: `The remote moved to ${originOf(input.url)}: send its token (or an empty token for none); the stored one is kept for ${originOf(old.url)} only`, type: 'missing' }]);
  }
  const sealed = input.token !== undefined ? (input.token ? deps.secretBox.seal(input.token) : null) : (old?.secret_sealed ?? null);
  await deps.store.run(sql`INSERT INTO knowledge_mirrors (org_id, url, username, secret_sealed, main_branch, api_base_url, repository, updated_by, updated_at)
     VALUES (${p.orgId}, ${input.url}, ${input.username ?? ''}, ${sealed}, ${input.main_branch ?? 'main'}, ${input.api_base_url ?? null}, ${input.repository ?? null}, ${p.userId}, ${deps.clock.now()})
     ON CONFLICT (org_id) DO UPDATE SET url = excluded.url, username = excluded.username, secret_sealed = excluded.secret_sealed,
       main_branch = excluded.main_branch, api_base_url = excluded.api_base_url, repository = excluded.repository,
       updated_by = excluded.updated_by, updated_at = excluded.updated_at, last_push_error = NULL`);
  await pushAll(deps, p.orgId);
  return mirrorView(await mirrorOf(deps, p.orgId));
}

/** Turns mirroring off (admins). */
export async function deleteMirror(deps: KnowledgeDeps, p: Principal): Promise<void> {
  requireAdmin(p);
  await deps.store.run(sql`DELETE FROM knowledge_mirrors WHERE org_id = ${p.orgId}`);
}

/** Pushes the branch a change was made on, when mirroring is on and it is production or a lasting environment. */
export async function mirrorAfterChange(deps: KnowledgeDeps, scope: Pick<Scope, 'orgId' | 'env'>): Promise<void> {
  if (scope.env) await mirrorEnvironment(deps, scope.orgId, scope.env);
  else await mirrorProduction(deps, scope.orgId);
}

/** Pushes production to the mirror's main branch, when mirroring is on. */
export async function mirrorProduction(deps: KnowledgeDeps, orgId: string): Promise<void> {
  const row = await mirrorOf(deps, orgId);
  if (row) await push(deps, row, MAIN_BRANCH, row.main_branch, false);
}

/** Pushes (or removes) a lasting environment's mirrored branch; false when the push failed. */
export async function mirrorEnvironment(deps: KnowledgeDeps, orgId: string, env: EnvironmentRow, remove = false): Promise<boolean> {
  const row = await mirrorOf(deps, orgId);
  if (!row || env.throwaway) return false;
  // The service owns service/env-* branches, so they are force-pushed.
  return push(deps, row, envBranch(env), mirrorBranch(env), true, remove);
}

async function pushAll(deps: KnowledgeDeps, orgId: string): Promise<void> {
  await mirrorProduction(deps, orgId);
  const envs = await listEnvironmentRows(deps.store, orgId, { throwaway: false });
  for (const env of envs) await mirrorEnvironment(deps, orgId, env);
}

/**
 * What the mirror status says about a failed push. The remote is named by an admin, so a refused
 * address, a network failure and an HTTP error (whose status line the remote writes) read alike: the
 * status must not map internal hosts and ports. Only a remote that spoke git and refused the update says so.
 */
function pushProblem(err: unknown): string {
  const rejected = err instanceof Error && (err.name === 'PushRejectedError' || err.message.startsWith('push rejected'));
  return rejected ? 'the remote rejected the push' : 'the remote could not be reached, is not allowed, or refused the request';
}

async function push(deps: KnowledgeDeps, row: MirrorRow, branch: string, remoteBranch: string, force: boolean, remove = false): Promise<boolean> {
  const repo = await deps.repos.repo(row.org_id);
  return repo.pushLock.run(async () => {
    // Nothing to push yet (an organization without knowledge).
    if (!remove && !(await resolveRef({ repo, ref: branch }))) return false;
    try {
      const token = row.secret_sealed ? deps.secretBox.open(row.secret_sealed) : undefined;
      const auth = token !== undefined ? { username: row.username || 'x-access-token', password: token } : undefined;
      await pushBranch({ repo, http: deps.outbound.git, url: row.url, branch, remoteBranch, auth, force, remove });
      await deps.store.run(sql`UPDATE knowledge_mirrors SET last_push_at = ${deps.clock.now()}, last_push_error = NULL WHERE org_id = ${row.org_id}`);
      return true;
    } catch (err) {
      deps.log.warn({ err, org_id: row.org_id, branch: remoteBranch }, 'knowledge mirror push failed');
      await deps.store.run(sql`UPDATE knowledge_mirrors SET last_push_error = ${`${remoteBranch}: ${pushProblem(err)}`} WHERE org_id = ${row.org_id}`);
      return false;
    }
  });
}
