// Admin set-up of the organization's OIDC providers (issue 23): add, list, read, change, remove
// and test. The client secret is write-only; another organization's provider answers 404.
import { z } from 'zod';
import { addSsoProvider, changeSsoProvider, getSsoProvider, listSsoProviders, removeSsoProvider } from '../../auth/sso/manage-providers.ts';
import { testSsoProvider } from '../../auth/sso/test-provider.ts';
import { accountDeps } from '../../compose/account-deps.ts';
import { clientInfo } from '../client-info.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Role = z.enum(['user', 'modeler', 'admin']);
const Claim = z.string().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'Letters, digits and _ . : / - only, at most 100 characters');
/** An OAuth scope token (RFC 6749 §3.3: printable ASCII but space, quote and backslash). */
const Scope = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, 'A scope is printable ASCII without spaces, quotes or backslashes, at most 100 characters');
const GroupMapping = z.object({
  group: z.string().min(1).max(200).describe('Group name as the identity provider sends it'),
  role: Role.optional().describe('Role given to members of this group (the strongest matching role wins)'),
  rls_groups: z.array(z.string().min(1).max(100)).max(50).optional().describe('Row-level-security groups joined (by name)'),
});

const Fields = {
  type: z.string().regex(/^[a-z0-9_-]{1,40}$/, 'Use 1 to 40 lower-case letters, digits, - or _ (it becomes part of the sign-in address)').describe('Slug in the sign-in URL /api/auth/{org_id}/{type}/login'),
  name: z.string().min(1, 'Give the provider a name; the sign-in page shows it').max(100).describe('Shown on the sign-in page'),
  issuer: z.string().min(1, 'Enter the issuer address from your identity provider').max(500).describe('OIDC issuer URL; its discovery document is fetched and checked at save'),
  client_id: z.string().min(1, 'Enter the client id your identity provider gave this application').max(500),
  client_secret: z.string().min(1).max(2000).nullable().optional().describe('Sealed at rest and never returned; null removes it (public client)'),
  scopes: z.array(Scope).max(20).default(['openid', 'email', 'profile']),
  email_claim: Claim.default('email'),
  groups_claim: Claim.nullable().default(null),
  jit_provisioning: z.boolean().default(true).describe('Create members on first sign-in; off: only existing members'),
  default_role: Role.default('user'),
  group_mappings: z.array(GroupMapping).max(200).default([]),
};
const NewProvider = z.object(Fields).strict();
const ProviderChange = z
  .object({
    type: Fields.type.optional(), name: Fields.name.optional(), issuer: Fields.issuer.optional(), client_id: Fields.client_id.optional(),
    client_secret: Fields.client_secret, scopes: z.array(Scope).max(20).optional(),
    email_claim: Claim.optional(), groups_claim: Claim.nullable().optional(), jit_provisioning: z.boolean().optional(),
    default_role: Role.optional(), group_mappings: z.array(GroupMapping).max(200).optional(),
  })
  .strict();

const Provider = z.object({
  id: z.string(), type: z.string(), name: z.string(), issuer: z.string(), client_id: z.string(),
  has_client_secret: z.boolean(), scopes: z.array(z.string()), email_claim: z.string(), groups_claim: z.string().nullable(),
  jit_provisioning: z.boolean(), default_role: Role, group_mappings: z.array(GroupMapping),
  login_url: z.string(), redirect_uri: z.string().describe('Register this callback URL at the identity provider'),
  created_at: z.string(), updated_at: z.string().nullable(),
});
const TestReport = z.object({
  ok: z.boolean(),
  checks: z.array(z.object({
    name: z.enum(['discovery', 'client_credentials']),
    ok: z.boolean().nullable().describe('null: the provider gave no clear answer'),
    problem: z.string().nullable().describe('invalid_issuer_url, discovery_failed (unreachable, not allowed, or no valid document: one answer), bad_client_credentials, token_endpoint_failed'),
    detail: z.string(),
  })),
});
const Id = z.object({ id: z.string().min(1).max(100) });

/** SSO provider routes for admins. */
export function adminSsoRoutes(s: Services) {
  const deps = { ...accountDeps(s), outbound: s.outbound };
  const common = { tags: ['admin'], auth: 'user' as const, role: 'admin' as const };
  const base = '/api/admin/sso/providers';
  return [
    route({
      ...common, method: 'GET', path: base, operationId: 'admin_list_sso_providers', response: z.object({ providers: z.array(Provider) }),
      summary: "Admin: lists the organization's SSO (OIDC) providers",
      handler: async ({ principal }) => ({ providers: await listSsoProviders(deps, principal) }),
    }),
    route({
      ...common, method: 'POST', path: base, operationId: 'admin_add_sso_provider', status: 201, body: NewProvider, response: Provider,
      summary: 'Admin: adds an SSO provider (422 naming the discovery problem; 409 when the type is taken)',
      handler: ({ principal, body, ctx }) => addSsoProvider(deps, principal, body, clientInfo(ctx).ip),
    }),
    route({
      ...common, method: 'GET', path: `${base}/{id}`, operationId: 'admin_get_sso_provider', params: Id, response: Provider,
      summary: 'Admin: one SSO provider (the client secret is never returned)',
      handler: ({ principal, params }) => getSsoProvider(deps, principal, params.id),
    }),
    route({
      ...common, method: 'PATCH', path: `${base}/{id}`, operationId: 'admin_change_sso_provider', params: Id, body: ProviderChange, response: Provider,
      summary: 'Admin: changes an SSO provider; omitted fields stay, a changed issuer is checked again',
      handler: ({ principal, params, body, ctx }) => changeSsoProvider(deps, principal, params.id, body, clientInfo(ctx).ip),
    }),
    route({
      ...common, method: 'DELETE', path: `${base}/{id}`, operationId: 'admin_remove_sso_provider', params: Id,
      summary: 'Admin: removes an SSO provider; its sign-in is refused from then on',
      handler: ({ principal, params, ctx }) => removeSsoProvider(deps, principal, params.id, clientInfo(ctx).ip),
    }),
    route({
      ...common, method: 'POST', path: `${base}/{id}/test`, operationId: 'admin_test_sso_provider', params: Id, response: TestReport,
      summary: 'Admin: checks discovery and the client credentials and reports what is wrong',
      handler: ({ principal, params }) => testSsoProvider(deps, principal, params.id),
    }),
  ];
}
