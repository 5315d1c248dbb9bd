// Running an organization (issue 23): members, invitations, organization settings and sign-in unlock,
// for admins of the caller's organization; plus the public steps of an invitation link (what it is for, accept).
import { z } from 'zod';
import { ROLES } from '../../auth/index.ts';
import * as members from '../../auth/members/index.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { signInAnswer, TokenResponse } from './auth.ts';
import { EmailDomain, EmailDomainName } from './admin-email-domains.ts';

const Role = z.enum(ROLES);
const Email = z.string().trim().min(3).max(320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email address');
const UserId = z.object({ user_id: z.string().min(1).max(100) });
const InvitationId = z.object({ invitation_id: z.string().min(1).max(100) });
const AttributeName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Attribute names are letters, digits and _, at most 64, not starting with a digit');
const Attributes = z.record(AttributeName, z.string().max(1000)).refine((a) => Object.keys(a).length <= 100, 'At most 100 attributes');
const iso = z.string().describe('ISO 8601');

const Member = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: Role,
  can_merge: z.boolean().describe('May merge environments into production (always true for admins)'),
  status: z.enum(['active', 'deactivated']),
  last_sign_in_at: iso.nullable(),
  mfa_enabled: z.boolean(),
  sign_in_methods: z.array(z.enum(['password', 'magic_link', 'sso'])),
  attributes: z.record(z.string(), z.string()).describe('What row filters read as {{user.<name>}}'),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  joined_at: iso,
});
const Invitation = z.object({
  invitation_id: z.string(),
  email: z.string(),
  role: Role,
  invited_by: z.string().nullable(),
  created_at: iso,
  sent_at: iso,
  expires_at: iso,
});
const OrgSettings = z.object({
  mfa_required: z.boolean(),
  allowed_email_domains: z.array(z.string()).describe('Domains the organization claims; only verified ones route sign-ins here and let their addresses join on sign-up'),
  email_domains: z.array(EmailDomain).describe('Each claimed domain with its status and the TXT record that verifies it'),
  join_default_role: Role.describe('Role of people who join through an allowed domain'),
  session_lifetime_seconds: z.number().int().describe('Lifetime of new sessions; live ones keep theirs'),
  production_through_environments: z
    .boolean()
    .describe('Changes to production only through environments: knowledge writes to production answer 403 PRODUCTION_THROUGH_ENVIRONMENTS; merges stay allowed (behind the evaluation gate). On for organizations created by sign-up'),
  subscription_external_recipients: z.boolean().describe('Subscriptions may mail addresses outside the organization; off: members only (403 EXTERNAL_RECIPIENT_REFUSED)'),
});
const InvitationInfo = z.object({
  state: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  email: z.string(),
  org_name: z.string(),
  role: Role,
  invited_by: z.object({ name: z.string(), email: z.string() }).nullable().describe('Who sent the invitation; null when that account is gone'),
  expires_at: iso,
  sso_available: z.boolean(),
  account: z
    .enum(['new', 'existing', 'member', 'in_other_organization', 'deactivated'])
    .optional()
    .describe('Pending only: a new account is made, an existing one joins, or it cannot join (already a member, in another organization, deactivated)'),
});
const AcceptAnswer = TokenResponse.extend({
  org_id: z.string(),
  sso_login_url: z.string().optional().describe('Sign in through the organization\'s identity provider next'),
  joined: z.boolean().optional().describe('An existing SSO-only account joined; it signs in with SSO'),
});

/** Admin routes on the caller's organization; members and invitations of other organizations answer 404. */
export function adminMemberRoutes(s: Services) {
  const deps: members.MembersDeps = { ...accountDeps(s), facts: s.memberFacts, x: s.executor, invitationsPerDay: s.config.mail.invitationsPerDay };
  const tags = ['admin'];
  const admin = { auth: 'user', role: 'admin', tags } as const;
  return [
    route({
      ...admin, method: 'GET', path: '/api/admin/members', operationId: 'admin_list_members',
      summary: 'Members with role, status, last sign-in, MFA, sign-in methods and attributes; search and keyset pages',
      query: z.object({ q: z.string().max(200).optional().describe('Part of a name or email'), cursor: z.string().max(500).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
      response: z.object({ members: z.array(Member), next_cursor: z.string().nullable() }),
      handler: ({ principal, query }) => members.listMembers(deps, principal, query),
    }),
    route({
      ...admin, method: 'GET', path: '/api/admin/members/{user_id}', operationId: 'admin_get_member', summary: 'One member', params: UserId, response: Member,
      handler: ({ principal, params }) => members.getMember(deps, principal, params.user_id),
    }),
    route({
      ...admin, method: 'PUT', path: '/api/admin/members/{user_id}/role', operationId: 'admin_change_member_role',
      summary: 'Changes a member\'s role; the last active admin cannot be demoted (409 LAST_ADMIN)', params: UserId, response: Member,
      body: z.object({ role: Role, can_merge: z.boolean().optional().describe('Modelers: may merge to production') }),
      handler: ({ principal, params, body, ctx }) => members.changeRole(deps, principal, clientInfo(ctx), params.user_id, { role: body.role, canMerge: body.can_merge }),
    }),
    route({
      ...admin, method: 'PUT', path: '/api/admin/members/{user_id}/attributes', operationId: 'admin_set_member_attributes',
      summary: 'Replaces a member\'s attributes and, when given, their groups (what row-level security filters on)', params: UserId, response: Member,
      body: z
        .object({ attributes: Attributes.optional(), groups: z.array(z.string().min(1).max(64)).max(100).optional().describe('Group ids') })
        .refine((b) => b.attributes !== undefined || b.groups !== undefined, { message: 'Give attributes, groups or both', path: ['attributes'] }),
      handler: ({ principal, params, body, ctx }) => members.setMemberAttributes(deps, principal, clientInfo(ctx), params.user_id, body),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/members/{user_id}/deactivate', operationId: 'admin_deactivate_member',
      summary: 'Deactivates a member: every session and token of theirs is refused from the next request; chats and commits stay', params: UserId, response: Member,
      handler: ({ principal, params, ctx }) => members.deactivateMember(deps, principal, clientInfo(ctx), params.user_id),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/members/{user_id}/reactivate', operationId: 'admin_reactivate_member',
      summary: 'Lets a deactivated member in again (they sign in anew)', params: UserId, response: Member,
      handler: ({ principal, params, ctx }) => members.reactivateMember(deps, principal, clientInfo(ctx), params.user_id),
    }),
    route({
      ...admin, method: 'DELETE', path: '/api/admin/members/{user_id}', operationId: 'admin_remove_member', status: 204,
      summary: 'Removes a member from the organization; the last active admin cannot be removed (409 LAST_ADMIN)', params: UserId,
      handler: ({ principal, params, ctx }) => members.removeMember(deps, principal, clientInfo(ctx), params.user_id),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/members/{user_id}/unlock', operationId: 'admin_unlock_member',
      summary: 'Clears the failed sign-in attempts counted against a member from every address', params: UserId,
      response: z.object({ cleared: z.number().int() }),
      handler: ({ principal, params, ctx }) => members.unlockMember(deps, principal, clientInfo(ctx), params.user_id),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/invitations', operationId: 'admin_invite_member', status: 201,
      summary: 'Invites an address with a role; mails a single-use link valid 7 days', body: z.object({ email: Email, role: Role.default('user') }), response: Invitation,
      handler: ({ principal, body, ctx }) => members.inviteMember(deps, principal, clientInfo(ctx), body),
    }),
    route({
      ...admin, method: 'GET', path: '/api/admin/invitations', operationId: 'admin_list_invitations', summary: 'Pending invitations, newest first',
      response: z.object({ invitations: z.array(Invitation) }),
      handler: async ({ principal }) => ({ invitations: await members.listInvitations(deps, principal) }),
    }),
    route({
      ...admin, method: 'POST', path: '/api/admin/invitations/{invitation_id}/resend', operationId: 'admin_resend_invitation',
      summary: 'Mails a pending invitation again with a new link; the previous link stops working', params: InvitationId, response: Invitation,
      handler: ({ principal, params, ctx }) => members.resendInvitation(deps, principal, clientInfo(ctx), params.invitation_id),
    }),
    route({
      ...admin, method: 'DELETE', path: '/api/admin/invitations/{invitation_id}', operationId: 'admin_revoke_invitation', status: 204,
      summary: 'Revokes a pending invitation', params: InvitationId,
      handler: ({ principal, params, ctx }) => members.revokeInvitation(deps, principal, clientInfo(ctx), params.invitation_id),
    }),
    route({
      ...admin, method: 'GET', path: '/api/admin/organization/settings', operationId: 'admin_get_org_settings',
      summary: 'MFA requirement, self-service join domains and role, session lifetime, whether production changes only through environments', response: OrgSettings,
      handler: ({ principal }) => members.getOrgSettings(deps, principal),
    }),
    route({
      ...admin, method: 'PATCH', path: '/api/admin/organization/settings', operationId: 'admin_update_org_settings',
      summary: 'Changes the given organization settings', response: OrgSettings,
      body: z.object({
        mfa_required: z.boolean().optional(),
        allowed_email_domains: z.array(EmailDomainName).max(50).optional().describe('Replaces the claimed domains; a new one is pending until verified (public mail domains: 422)'),
        join_default_role: Role.optional(),
        session_lifetime_seconds: z.number().int().min(900).max(90 * 24 * 3600).optional().describe('15 minutes to 90 days'),
        production_through_environments: z.boolean().optional(),
        subscription_external_recipients: z.boolean().optional().describe('Subscriptions may mail addresses outside the organization (default: members only)'),
      }),
      handler: ({ principal, body, ctx }) => members.updateOrgSettings(deps, principal, clientInfo(ctx), body),
    }),
    route({
      method: 'POST', path: '/api/auth/invitation/info', operationId: 'invitation_info', tags: ['auth'], auth: 'none',
      summary: 'What an invitation link is for and whether it still works, for the invitation page; the token stays unused',
      description:
        'Answers for a link in any state (`pending`, `accepted`, `revoked`, `expired`) what its mail told: the address, the organization, the role and who invites. ' +
        'While it is pending, `account` says what accepting would do with the address\'s account (the link holder owns the mailbox; the inviter is never told). ' +
        'An unknown token (mistyped, or replaced by a resend) answers 400 INVALID_INVITATION and counts against the client address: 429 past 50 in 15 minutes.',
      body: z.object({ token: z.string().min(1).max(200) }),
      response: InvitationInfo,
      handler: ({ body, ctx }) => members.invitationInfo(deps, body.token, clientInfo(ctx)),
    }),
    route({
      method: 'POST', path: '/api/auth/invitation/accept', operationId: 'accept_invitation', tags: ['auth'], auth: 'none',
      summary: 'Accepts an invitation with its link token: signs up into the organization with a password, a sign-in link or SSO',
      body: z.object({
        token: z.string().min(1).max(200),
        method: z.enum(['password', 'magic_link', 'sso']).default('password'),
        password: z.string().max(1024).optional().describe('Required with method password for a new account'),
        name: z.string().trim().max(200).optional(),
      }),
      response: AcceptAnswer,
      handler: async ({ body, ctx }) => {
        const r = await members.acceptInvitation(deps, body, clientInfo(ctx));
        if (r.kind === 'sso') return { org_id: r.orgId, token_type: 'none', sso_login_url: `${s.config.baseUrl}${r.loginPath}` };
        if (r.kind === 'joined') return { org_id: r.orgId, token_type: 'none', joined: true };
        return { org_id: r.orgId, ...signInAnswer(s, ctx, r.result) };
      },
    }),
  ];
}
