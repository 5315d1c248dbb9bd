// Applies a provider's group mapping at each SSO sign-in: the IdP groups in the configured claim
// give the member a role and row-level-security groups. RLS groups belong to src/data, reached
// through the SsoGroupPort that src/compose implements.
import type { IdTokenClaims } from './id-token.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { ROLES, type Role } from '../principal.ts';
import type { GroupMapping, SsoProviderRow } from './provider-store.ts';

/** Sets a member's RLS groups among those a provider manages: joins `groups`, leaves the rest of `managed`. */
export interface SsoGroupPort {
  syncGroups(p: { orgId: string; userId: string; groups: string[]; managed: string[] }): void;
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
export function applyGroupMappings(deps: SsoDeps, config: SsoProviderRow, userId: string, claims: IdTokenClaims): void {
  const mappings = JSON.parse(config.group_mappings) as GroupMapping[];
  if (!config.groups_claim || mappings.length === 0) return;
  const { role, rlsGroups, managed } = resolveMappings(mappings, claimedGroups(claims, config.groups_claim));
  if (role) setMappedRole(deps, config.org_id, userId, role);
  if (managed.length > 0) deps.ssoGroups?.syncGroups({ orgId: config.org_id, userId, groups: rlsGroups, managed });
}

/** Gives the mapped role, except that the organization's last admin is never demoted by a mapping. */
function setMappedRole(deps: SsoDeps, orgId: string, userId: string, role: Role): void {
  deps.db
    .prepare(
      `UPDATE memberships SET role = ? WHERE user_id = ? AND org_id = ?
       AND (role <> 'admin' OR ? = 'admin' OR (SELECT COUNT(*) FROM memberships WHERE org_id = ? AND role = 'admin') > 1)`,
    )
    .run(role, userId, orgId, role, orgId);
}
