import { ValidationFailed, type FieldIssue } from '../../errors.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { auditAdmin, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';

// Attribute names and values (reserved names included) are checked by the one write of attributes
// behind the facts port (src/data/rls/attribute-rules.ts), for this route and the row-security one.
async function issuesOf(deps: MembersDeps, orgId: string, groups: string[] | undefined): Promise<FieldIssue[]> {
  const unknown = new Set(groups ? await deps.facts.unknownGroups(orgId, groups) : []);
  return (groups ?? []).flatMap((g, i): FieldIssue[] => (unknown.has(g) ? [{ loc: ['body', 'groups', i], msg: `No group ${g} in this organization`, type: 'value_error' }] : []));
}

/** Replaces a member's attributes and, when given, their groups: what row-level security filters on. */
export async function setMemberAttributes(
  deps: MembersDeps,
  admin: Principal,
  client: RequestClient,
  userId: string,
  facts: { attributes?: Record<string, string> | undefined; groups?: string[] | undefined },
): Promise<MemberView> {
  await memberOf(deps.x, admin, userId);
  const issues = await issuesOf(deps, admin.orgId, facts.groups);
  if (issues.length > 0) throw new ValidationFailed(issues);
  // The facts live in the data domain's tables (its port writes them); the entry follows the write.
  await deps.facts.setFacts(admin.orgId, userId, facts);
  await auditAdmin(deps, admin, client, {
    action: 'member_attributes_changed',
    userId,
    data: { attributes: facts.attributes ? Object.keys(facts.attributes) : undefined, groups: facts.groups },
  });
  return getMember(deps, admin, userId);
}
