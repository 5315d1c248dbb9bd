// SSO sign-in per organization: start (state, nonce, PKCE stored once) and finish (state consumed
// once, code exchanged, user linked or created, then the normal sign-in continues, MFA included).
import type { JWTPayload } from 'jose';
import { Forbidden, NotFound } from '../../errors.ts';
import { consumeOnce, hashSecret } from '../../security/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { createUser, findUserByEmail, getMembership, getUser, setMembership, type UserRow } from '../directory.ts';
import { safeNextPath } from '../credentials/safe-next.ts';
import { completeFirstFactor, type SignInResult } from '../credentials/sign-in.ts';
import { authorizationUrl, discover, exchangeCode, newLoginSecrets, SsoFailed } from './oidc-client.ts';
import { transact } from '../../store/index.ts';

export const SSO_LOGIN_TTL_MS = 10 * 60_000;

interface SsoConfigRow {
  org_id: string;
  type: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  enabled: number;
}

function ssoConfig(deps: AccountDeps, orgId: string, type: string): SsoConfigRow {
  const row = deps.db.prepare('SELECT * FROM sso_configs WHERE org_id = ? AND type = ? AND enabled = 1').get(orgId, type) as SsoConfigRow | undefined;
  if (!row) throw new NotFound('SSO is not configured for this organization', 'SSO_NOT_CONFIGURED');
  return row;
}

/** The callback URL registered at the provider. */
export function ssoRedirectUri(baseUrl: string, orgId: string, type: string): string {
  return `${baseUrl}/api/auth/${encodeURIComponent(orgId)}/${encodeURIComponent(type)}/auth`;
}

/** Starts a login: returns the provider URL and the state to bind to the browser (cookie). */
export async function startSsoLogin(deps: AccountDeps, orgId: string, type: string, next: string | undefined): Promise<{ url: string; state: string }> {
  const config = ssoConfig(deps, orgId, type);
  const meta = await discover(config.issuer);
  const secrets = newLoginSecrets();
  const now = deps.clock.now();
  deps.db
    .prepare('INSERT INTO sso_logins (state_hash, org_id, type, code_verifier, nonce, next_path, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(hashSecret(secrets.state), orgId, type, secrets.codeVerifier, secrets.nonce, safeNextPath(next), now, now + SSO_LOGIN_TTL_MS);
  if (Math.random() < 0.02) deps.db.prepare('DELETE FROM sso_logins WHERE expires_at < ?').run(now - 24 * 3600_000);
  const url = authorizationUrl(meta, { clientId: config.client_id, redirectUri: ssoRedirectUri(deps.baseUrl, orgId, type), ...secrets });
  return { url, state: secrets.state };
}

/** Finishes a login from the provider's callback; `browserState` is the state cookie of the browser that started it. */
export async function finishSsoLogin(
  deps: AccountDeps,
  p: { orgId: string; type: string; code: string; state: string; browserState: string | undefined },
): Promise<{ result: SignInResult; next: string }> {
  if (!p.browserState || p.browserState !== p.state) throw new SsoFailed('state_mismatch');
  const now = deps.clock.now();
  const stateHash = hashSecret(p.state);
  const won = consumeOnce(deps.db, { table: 'sso_logins', usedColumn: 'used_at', where: 'state_hash = ? AND org_id = ? AND type = ? AND expires_at > ?', params: [stateHash, p.orgId, p.type, now], now });
  if (!won) throw new SsoFailed('unknown_or_used_state');
  const login = deps.db.prepare('SELECT code_verifier, nonce, next_path FROM sso_logins WHERE state_hash = ?').get(stateHash) as { code_verifier: string; nonce: string; next_path: string };
  const config = ssoConfig(deps, p.orgId, p.type);
  const meta = await discover(config.issuer);
  const claims = await exchangeCode(meta, deps.clock, {
    clientId: config.client_id,
    clientSecret: config.client_secret ? deps.secretBox.open(config.client_secret) : undefined,
    redirectUri: ssoRedirectUri(deps.baseUrl, p.orgId, p.type),
    code: p.code,
    codeVerifier: login.code_verifier,
    nonce: login.nonce,
  });
  const user = linkUser(deps, config, claims);
  writeAudit(deps.db, deps.clock, { action: 'sso_sign_in', userId: user.id, orgId: p.orgId, data: { issuer: config.issuer } });
  return { result: completeFirstFactor(deps, user, 'sso', p.orgId), next: login.next_path };
}

/** The user for the provider's subject: linked before, or matched by verified email among members, or created. */
function linkUser(deps: AccountDeps, config: SsoConfigRow, claims: JWTPayload): UserRow {
  const subject = claims.sub;
  if (!subject) throw new SsoFailed('no_subject');
  const linked = deps.db.prepare('SELECT user_id FROM sso_identities WHERE issuer = ? AND subject = ?').get(config.issuer, subject) as { user_id: string } | undefined;
  if (linked) {
    const user = getUser(deps.db, linked.user_id);
    if (!user || user.disabled_at !== null || !getMembership(deps.db, user.id, config.org_id)) throw new Forbidden('Account is not a member of this organization', 'NOT_A_MEMBER');
    return user;
  }
  const email = typeof claims['email'] === 'string' ? claims['email'] : undefined;
  if (!email || claims['email_verified'] !== true) throw new SsoFailed('email_not_verified');
  return transact(deps.db, () => {
    let user = findUserByEmail(deps.db, email);
    if (user && !getMembership(deps.db, user.id, config.org_id)) throw new Forbidden('Account is not a member of this organization', 'NOT_A_MEMBER');
    if (!user) {
      const name = typeof claims['name'] === 'string' ? claims['name'] : '';
      user = createUser(deps.db, deps.clock, { email, name, identityKind: 'sso', emailVerified: true });
      setMembership(deps.db, deps.clock, { userId: user.id, orgId: config.org_id, role: 'user' });
    }
    deps.db.prepare('INSERT INTO sso_identities (org_id, issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?, ?)').run(config.org_id, config.issuer, subject, user.id, deps.clock.now());
    return user;
  });
}
