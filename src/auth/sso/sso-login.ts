// SSO sign-in per organization: start (state, nonce, PKCE stored once) and finish (state consumed
// once, code exchanged, user linked or created, then the normal sign-in continues, MFA included).
import { AppError, NotFound } from '../../errors.ts';
import { hashSecret } from '../../security/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { applyGroupMappings, type SsoDeps } from './group-mappings.ts';
import { consumeLoginState, saveLoginState, type LoginState } from './login-state.ts';
import { providerByType, type SsoProviderRow } from './provider-store.ts';
import { linkUser } from './link-user.ts';
import { safeNextPath } from '../credentials/safe-next.ts';
import { completeFirstFactor, type SignInResult } from '../credentials/sign-in.ts';
import type { Outbound } from '../../outbound/index.ts';
import { authorizationUrl, discover, exchangeCode, newLoginSecrets, SsoFailed, type OidcNet } from './oidc-client.ts';

/** The guarded client every request to the organization's identity provider goes through. */
type Net = { outbound: Pick<Outbound, 'fetch'> };
const netOf = (deps: Net & Pick<AccountDeps, 'log'>): OidcNet => ({ fetch: deps.outbound.fetch, log: deps.log });

export const SSO_LOGIN_TTL_MS = 10 * 60_000;

async function ssoConfig(deps: Pick<AccountDeps, 'store'>, orgId: string, type: string): Promise<SsoProviderRow> {
  const row = await providerByType(deps.store, orgId, type);
  if (!row) throw new NotFound('SSO is not configured for this organization', 'SSO_NOT_CONFIGURED');
  return row;
}

/** The callback URL registered at the provider. */
export function ssoRedirectUri(baseUrl: string, orgId: string, type: string): string {
  return `${baseUrl}/api/auth/${encodeURIComponent(orgId)}/${encodeURIComponent(type)}/auth`;
}

/** The URL that starts a sign-in with the provider. */
export function ssoLoginUrl(baseUrl: string, orgId: string, type: string): string {
  return `${baseUrl}/api/auth/${encodeURIComponent(orgId)}/${encodeURIComponent(type)}/login`;
}

/** Starts a login: returns the provider URL and the state to bind to the browser (cookie). */
export async function startSsoLogin(deps: Pick<AccountDeps, 'store' | 'clock' | 'baseUrl' | 'log'> & Net, orgId: string, type: string, next: string | undefined): Promise<{ url: string; state: string }> {
  const config = await ssoConfig(deps, orgId, type);
  const meta = await discover(netOf(deps), config.issuer);
  const secrets = newLoginSecrets();
  const now = deps.clock.now();
  await saveLoginState(deps.store, {
    stateHash: hashSecret(secrets.state),
    orgId,
    type,
    login: { code_verifier: secrets.codeVerifier, nonce: secrets.nonce, next_path: safeNextPath(next) },
    now,
    expiresAt: now + SSO_LOGIN_TTL_MS,
  });
  const url = authorizationUrl(meta, { clientId: config.client_id, scope: config.scopes, redirectUri: ssoRedirectUri(deps.baseUrl, orgId, type), ...secrets });
  return { url, state: secrets.state };
}

/** Finishes a login from the provider's callback; `browserState` is the state cookie of the browser that started it. */
export async function finishSsoLogin(
  deps: SsoDeps & Net,
  p: { orgId: string; type: string; code: string; state: string; browserState: string | undefined; ip?: string },
): Promise<{ result: SignInResult; next: string }> {
  if (!p.browserState || p.browserState !== p.state) throw new SsoFailed('state_mismatch');
  // Consumed once, on every replica: of concurrent callbacks with one state, one goes on.
  const login = await consumeLoginState(deps.store, { stateHash: hashSecret(p.state), orgId: p.orgId, type: p.type, now: deps.clock.now() });
  if (!login) throw new SsoFailed('unknown_or_used_state');
  // From here the callback belongs to a sign-in this organization started: failures are audited.
  try {
    return await completeCallback(deps, p, login);
  } catch (err) {
    const code = err instanceof AppError ? err.code : 'INTERNAL_ERROR';
    const reason = err instanceof AppError ? err.data?.['reason'] : undefined;
    await writeAudit(deps, { action: 'sso_sign_in_failed', orgId: p.orgId, ip: p.ip, outcome: 'failure', data: { type: p.type, code, ...(reason ? { reason } : {}) } });
    throw err;
  }
}

async function completeCallback(deps: SsoDeps & Net, p: { orgId: string; type: string; code: string; ip?: string }, login: LoginState): Promise<{ result: SignInResult; next: string }> {
  const config = await ssoConfig(deps, p.orgId, p.type);
  const meta = await discover(netOf(deps), config.issuer);
  const claims = await exchangeCode(netOf(deps), meta, deps.clock, {
    clientId: config.client_id,
    clientSecret: config.client_secret ? deps.secretBox.open(config.client_secret) : undefined,
    redirectUri: ssoRedirectUri(deps.baseUrl, p.orgId, p.type),
    code: p.code,
    codeVerifier: login.code_verifier,
    nonce: login.nonce,
  });
  const user = await linkUser(deps, config, claims);
  await applyGroupMappings(deps, config, user.id, claims);
  await writeAudit(deps, { action: 'sso_sign_in', userId: user.id, orgId: p.orgId, ip: p.ip, data: { issuer: config.issuer, provider_id: config.id } });
  return { result: await completeFirstFactor(deps, user, 'sso', p.orgId, p.ip), next: login.next_path };
}
