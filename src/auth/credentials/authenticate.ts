// Turns a presented credential into a Principal, checking it against the store on every request (or
// against a cache that every write to the store's credential tables empties: credential-cache.ts) so
// that revocation, role changes and disabled users take effect at once.
import type { Clock } from '../../clock.ts';
import { andThen, type MaybePromise } from '../../shared/settled.ts';
import { Unauthorized } from '../../errors.ts';
import { hashSecret } from '../../security/index.ts';
import type { Executor } from '../../store/index.ts';
import { looksLikeApiToken, touchToken, type TokenKind } from '../tokens/api-tokens.ts';
import { credentialCache, type CredentialCache } from './credential-cache.ts';
import { sessionCaller, tokenCaller, type CallerRow } from './credential-rows.ts';
import { getMembership, getOrganization, getUser, type MembershipRow, type OrgRow, type UserRow } from '../directory.ts';
import { looksLikeJwt, verifyJwt, type JwtClaims, type JwtPurpose } from './jwt.ts';
import type { CredentialKind, Permission, Principal } from '../principal.ts';
import { sessionIsLive } from './sessions.ts';

export interface AuthDeps {
  store: Executor;
  clock: Clock;
  jwtKey: string;
}

/** A credential as it arrived, before it is trusted. */
export type PresentedCredential =
  | { via: 'api_key'; value: string }
  | { via: 'bearer'; value: string }
  | { via: 'cookie'; value: string }
  | { via: 'query_token'; value: string; userId: string | undefined };

export class InvalidApiToken extends Unauthorized {
  constructor() {
    super('Invalid API token', 'INVALID_API_TOKEN');
  }
}

export class InvalidSession extends Unauthorized {
  constructor() {
    super('Could not validate credentials', 'INVALID_SESSION');
  }
}

const TOKEN_CREDENTIAL: Record<TokenKind, CredentialKind> = { api: 'api_token', cli: 'cli_token', mcp: 'mcp_token' };

/**
 * Resolves a presented credential to a Principal or throws Unauthorized. A credential the cache holds
 * resolves at once, without a promise: that is nearly every request.
 */
export function authenticate(deps: AuthDeps, presented: PresentedCredential): MaybePromise<Principal> {
  const { value } = presented;
  if (presented.via === 'api_key' || presented.via === 'query_token' || (presented.via === 'bearer' && looksLikeApiToken(value))) {
    const principal = authenticateApiToken(deps, value);
    if (presented.via !== 'query_token') return principal;
    return andThen(principal, (p) => {
      if (presented.userId !== p.userId) throw new InvalidApiToken();
      return p;
    });
  }
  if (!looksLikeJwt(value)) throw presented.via === 'cookie' ? new InvalidSession() : new InvalidApiToken();
  return authenticateJwt(deps, value);
}

/** Checks an API, CLI or MCP token value (at once when the cache holds it). */
export function authenticateApiToken(deps: AuthDeps, value: string): MaybePromise<Principal> {
  const now = deps.clock.now();
  const cache = credentialCache(deps.store);
  return cache.get(`token:${value}`, now) ?? readApiToken(deps, cache, value, now);
}

async function readApiToken(deps: AuthDeps, cache: CredentialCache, value: string, now: number): Promise<Principal> {
  const generation = cache.generation();
  const row = looksLikeApiToken(value) ? await tokenCaller(deps.store, hashSecret(value)) : undefined;
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw new InvalidApiToken();
  const principal = callerPrincipal(row, TOKEN_CREDENTIAL[row.kind], row.scopes.split(' ').filter(Boolean));
  if (!principal) throw new InvalidApiToken();
  // At most once a minute per token, so a busy token does not write on every request.
  if (row.last_used_at === null || row.last_used_at < now - 60_000) await touchToken(deps.store, deps.clock, row.token_id);
  const result = { ...principal, tokenId: row.token_id };
  cache.set(`token:${value}`, result, row.expires_at ?? Infinity, now, generation);
  return result;
}

const JWT_CREDENTIAL: [Extract<JwtPurpose, 'session' | 'enrollment' | 'embedded'>, CredentialKind][] = [
  ['session', 'session'],
  ['enrollment', 'enrollment'],
  ['embedded', 'embedded'],
];

function authenticateJwt(deps: AuthDeps, value: string): MaybePromise<Principal> {
  for (const [purpose, credential] of JWT_CREDENTIAL) {
    const claims = verifyJwt(deps.jwtKey, deps.clock, purpose, value);
    if (!claims) continue;
    const now = deps.clock.now();
    const cache = credentialCache(deps.store);
    return cache.get(`${purpose}:${value}`, now) ?? readJwtCaller(deps, cache, { purpose, credential, claims, value }, now);
  }
  throw new InvalidSession();
}

interface VerifiedJwt {
  purpose: (typeof JWT_CREDENTIAL)[number][0];
  credential: CredentialKind;
  claims: JwtClaims;
  value: string;
}

async function readJwtCaller(deps: AuthDeps, cache: CredentialCache, { purpose, credential, claims, value }: VerifiedJwt, now: number): Promise<Principal> {
  const generation = cache.generation();
  // The user, organization, membership and session come back in one statement: one snapshot.
  const row = await sessionCaller(deps.store, claims.sub, claims.org, claims.sid ?? null);
  if (!row || row.token_version !== claims.tv) throw new InvalidSession();
  // Session and embedded tokens stand for a session row, which must be live and belong to this
  // user in this organization: a token naming someone else's session is refused.
  if (purpose !== 'enrollment' && !(claims.sid && sessionIsLive(row, now, purpose, claims.sub, claims.org))) throw new InvalidSession();
  const principal = callerPrincipal(row, credential, []);
  if (!principal) throw new InvalidSession();
  const result = claims.sid ? { ...principal, sessionId: claims.sid } : principal;
  const expiries = [(claims['exp'] as number) * 1000, row.s_expires_at, row.p_expires_at, row.t_expires_at].filter((x): x is number => typeof x === 'number');
  cache.set(`${purpose}:${value}`, result, Math.min(...expiries), now, generation);
  return result;
}

/** The Principal of a caller row, or undefined if they may not act there (disabled, deactivated, not a member, no such organization). */
function callerPrincipal(row: CallerRow, credential: CredentialKind, scopes: string[]): Principal | undefined {
  if (row.disabled_at !== null || row.org_id === null || row.role === null || row.deactivated_at !== null) return undefined;
  return {
    userId: row.user_id,
    email: row.email,
    orgId: row.org_id,
    baseOrgId: row.base_org_id ?? row.org_id,
    role: row.role,
    permissions: row.can_merge ? ['merge_to_production'] : [],
    credential,
    scopes,
  };
}

/** The Principal behind an OAuth grant's account (user and organization), or undefined when it may no longer act. */
export async function oauthPrincipal(deps: { store: Executor }, userId: string, orgId: string, scopes: string[]): Promise<Principal | undefined> {
  const user = await getUser(deps.store, userId);
  return user && principalFor(deps.store, user, orgId, 'oauth', scopes);
}

/** The Principal of a user acting in an organization, or undefined if they may not (disabled, not a member). */
export async function principalFor(store: Executor, user: UserRow, orgId: string, credential: CredentialKind, scopes: string[]): Promise<Principal | undefined> {
  if (user.disabled_at !== null) return undefined;
  return memberPrincipal(user, await getOrganization(store, orgId), await getMembership(store, user.id, orgId), credential, scopes);
}

/** The Principal of a user in an organization from its rows, or undefined if they may not act there. */
export function memberPrincipal(
  user: UserRow,
  org: OrgRow | undefined,
  membership: MembershipRow | undefined,
  credential: CredentialKind,
  scopes: string[],
): Principal | undefined {
  if (user.disabled_at !== null || !org || !membership || membership.deactivated_at !== null) return undefined;
  const permissions: Permission[] = membership.can_merge ? ['merge_to_production'] : [];
  return {
    userId: user.id,
    email: user.email,
    orgId: org.id,
    baseOrgId: org.base_org_id ?? org.id,
    role: membership.role,
    permissions,
    credential,
    scopes,
  };
}
