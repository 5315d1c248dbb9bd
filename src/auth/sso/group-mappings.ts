// Applies a provider's group mapping at each SSO sign-in: the IdP groups in the configured claim
// give the member a role and row-level-security groups. RLS groups belong to src/data, reached
// through the SsoGroupPort that src/compose implements.
import { sql } from 'kysely';
import type { IdTokenClaims } from './id-token.ts';
import { keepsAnAdmin } from '../members/last-admin.ts';
import { lockOrganization } from '../members/org-rows.ts';
import type { Executor } from '../../store/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { ROLES, type Role } from '../principal.ts';
import type { GroupMapping, SsoProviderRow } from './provider-store.ts';

/** Sets a member's RLS groups among those a provider manages: joins `groups`, leaves the rest of `managed`. */
export interface SsoGroupPort {
  syncGroups(p: { orgId: string; userId: string; groups: string[]; managed: string[] }): Promise<void>;
}

export type SsoDeps = AccountDeps & { ssoGroups?: SsoGroupPort | undefined };

/** The IdP groups of the claims (an array of strings, or one string). */
export function claimedGroups(claims: IdTokenClaims, claim: string | null): string[] {
  if (!claim) return [];
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The strongest role and every RLS group the matched mappings give. */
export function resolveMappings(mappings: GroupMapping[], groups: string[]): { role: Role | undefined; rlsGroups: string[]; managed: string[] } {
  const matched = mappings.filter((m) => groups.includes(m.group));
  const roles = matched.map((m) => m.role).filter((r): r is Role => r !== undefined);
  const role = roles.sort((a, b) => ROLES.indexOf(b) - ROLES.indexOf(a))[0];
  return {
    role,
    rlsGroups: [...new Set(matched.flatMap((m) => m.rls_groups ?? []))],
    managed: [...new Set(mappings.flatMap((m) => m.rls_groups ?? []))],
  };
}

/** Applies the mapping to the member; without a groups claim or mappings nothing changes. */
export async function applyGroupMappings(
  deps: Pick<SsoDeps, 'store' | 'ssoGroups'>,
  config: SsoProviderRow,
  userId: string,
  claims: IdTokenClaims,
): Promise<void> {
  const mappings = JSON.parse(config.group_mappings) as GroupMapping[];
  if (!config.groups_claim || mappings.length === 0) return;
  const { role, rlsGroups, managed } = resolveMappings(mappings, claimedGroups(claims, config.groups_claim));
  if (role) await setMappedRole(deps.store, config.org_id, userId, role);
  if (managed.length > 0) await deps.ssoGroups?.syncGroups({ orgId: config.org_id, userId, groups: rlsGroups, managed });
}

/**
 * Gives the mapped role, except that the organization's last active admin is never demoted by a
 * mapping: the batch opens with the organization's row lock, so two sign-ins demoting the last two
 * admins at once run one after the other on PostgreSQL and the second one's guard sees the first.
 * A refused demotion keeps the role silently; the sign-in itself goes on.
 */
export async function setMappedRole(x: Executor, orgId: string, userId: string, role: Role): Promise<void> {
  const guard = role === 'admin' ? sql`1 = 1` : keepsAnAdmin(orgId, userId);
  await x.batch(
    [lockOrganization(orgId), sql`UPDATE memberships SET role = ${role} WHERE user_id = ${userId} AND org_id = ${orgId} AND ${guard}`],
    { require: [1] },
  );
}
