// Admins add, read, change and remove their organization's OIDC providers. The issuer's discovery
// document is fetched and checked at every save; the client secret is sealed and never read back.
import { Conflict, NotFound, ValidationFailed } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import type { Principal, Role } from '../principal.ts';
import type { Outbound } from '../../outbound/index.ts';
import { fetchDiscovery, logDiscoveryFailure } from './discovery.ts';
import { deleteProviderRow, insertProviderRow, listProviderRows, providerRow, updateProviderRow, type GroupMapping, type SsoProviderFields, type SsoProviderRow } from './provider-store.ts';
import { ssoLoginUrl, ssoRedirectUri } from './sso-login.ts';

/** What provider management needs; every request to the issuer goes through `outbound`. */
export type ProviderDeps = Pick<AccountDeps, 'store' | 'clock' | 'secretBox' | 'baseUrl' | 'log'> & { outbound: Pick<Outbound, 'fetch'> };

/** What an admin sends; on a change every field is optional and `client_secret: null` removes the secret. */
export interface ProviderInput {
  type: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret?: string | null | undefined;
  scopes: string[];
  email_claim: string;
  groups_claim: string | null;
  jit_provisioning: boolean;
  default_role: Role;
  group_mappings: GroupMapping[];
}

export interface ProviderView extends Omit<ProviderInput, 'client_secret'> {
  id: string;
  has_client_secret: boolean;
  login_url: string;
  redirect_uri: string;
  created_at: string;
  updated_at: string | null;
}

/** The provider as admins see it: no secret, the URLs to register at the IdP. */
export function providerView(baseUrl: string, row: SsoProviderRow): ProviderView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    issuer: row.issuer,
    client_id: row.client_id,
    has_client_secret: row.client_secret !== null,
    scopes: row.scopes.split(' ').filter(Boolean),
    email_claim: row.email_claim,
    groups_claim: row.groups_claim,
    jit_provisioning: row.jit_provisioning === 1,
    default_role: row.default_role,
    group_mappings: JSON.parse(row.group_mappings) as GroupMapping[],
    login_url: ssoLoginUrl(baseUrl, row.org_id, row.type),
    redirect_uri: ssoRedirectUri(baseUrl, row.org_id, row.type),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: row.updated_at === null ? null : new Date(row.updated_at).toISOString(),
  };
}

/** Lists the organization's providers. */
export async function listSsoProviders(deps: ProviderDeps, admin: Principal): Promise<ProviderView[]> {
  return (await listProviderRows(deps.store, admin.orgId)).map((r) => providerView(deps.baseUrl, r));
}

/** One provider of the organization (another organization's: 404). */
export async function getSsoProvider(deps: ProviderDeps, admin: Principal, id: string): Promise<ProviderView> {
  return providerView(deps.baseUrl, await mustFind(deps, admin, id));
}

/** Adds a provider after checking the issuer's discovery document. */
export async function addSsoProvider(deps: ProviderDeps, admin: Principal, input: ProviderInput, ip: string): Promise<ProviderView> {
  await checkIssuer(deps, input.issuer);
  const id = newId();
  const fields = toFields(deps, input, null);
  if (!(await insertProviderRow(deps.store, { id, orgId: admin.orgId, now: deps.clock.now(), fields }))) {
    throw new Conflict(`A provider of type ${input.type} already exists`, 'SSO_PROVIDER_EXISTS');
  }
  await audit(deps, admin, 'sso_provider_added', id, ip, { type: input.type, issuer: input.issuer });
  return getSsoProvider(deps, admin, id);
}

/** Changes a provider; the issuer is checked again when it changes. */
export async function changeSsoProvider(deps: ProviderDeps, admin: Principal, id: string, change: Partial<ProviderInput>, ip: string): Promise<ProviderView> {
  const row = await mustFind(deps, admin, id);
  const current = { ...providerView(deps.baseUrl, row), client_secret: undefined };
  const next: ProviderInput = { ...current, ...change };
  if (next.issuer !== row.issuer) await checkIssuer(deps, next.issuer);
  const fields = toFields(deps, next, row.client_secret);
  if (!(await updateProviderRow(deps.store, { id, orgId: admin.orgId, now: deps.clock.now(), fields }))) {
    await mustFind(deps, admin, id); // removed meanwhile: 404, else the new type is taken
    throw new Conflict(`A provider of type ${next.type} already exists`, 'SSO_PROVIDER_EXISTS');
  }
  await audit(deps, admin, 'sso_provider_changed', id, ip, { fields: Object.keys(change).sort() });
  return getSsoProvider(deps, admin, id);
}

/** Removes a provider: its sign-in URL stops working at once. */
export async function removeSsoProvider(deps: ProviderDeps, admin: Principal, id: string, ip: string): Promise<void> {
  const row = await mustFind(deps, admin, id);
  await deleteProviderRow(deps.store, row);
  await audit(deps, admin, 'sso_provider_removed', id, ip, { type: row.type, issuer: row.issuer });
}

export async function mustFind(deps: Pick<ProviderDeps, 'store'>, admin: Principal, id: string): Promise<SsoProviderRow> {
  const row = await providerRow(deps.store, admin.orgId, id);
  if (!row) throw new NotFound('SSO provider not found', 'SSO_PROVIDER_NOT_FOUND');
  return row;
}

function toFields(deps: ProviderDeps, p: ProviderInput, keptSecret: string | null): SsoProviderFields {
  const sealedSecret = p.client_secret === undefined ? keptSecret : p.client_secret === null ? null : deps.secretBox.seal(p.client_secret);
  return {
    type: p.type,
    name: p.name,
    issuer: p.issuer,
    clientId: p.client_id,
    sealedSecret,
    scopes: p.scopes.includes('openid') ? p.scopes : ['openid', ...p.scopes],
    emailClaim: p.email_claim,
    groupsClaim: p.groups_claim,
    jitProvisioning: p.jit_provisioning,
    defaultRole: p.default_role,
    groupMappings: p.group_mappings,
  };
}

async function checkIssuer(deps: ProviderDeps, issuer: string): Promise<void> {
  const found = await fetchDiscovery(deps.outbound.fetch, issuer);
  logDiscoveryFailure(deps.log, issuer, found);
  if (!found.ok) throw new ValidationFailed([{ loc: ['body', 'issuer'], msg: found.detail, type: found.problem }], 'The issuer failed OIDC discovery');
}

function audit(deps: ProviderDeps, admin: Principal, action: string, id: string, ip: string, data: Record<string, unknown>): Promise<void> {
  return writeAudit(deps, { action, orgId: admin.orgId, actorId: admin.userId, target: { type: 'sso_provider', id }, ip, data });
}
