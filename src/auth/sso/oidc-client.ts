// The relying-party half of OpenID Connect: discovery, the authorization URL (code flow with PKCE,
// state and nonce), the code exchange and the id_token check (id-token.ts, against the issuer's JWKS).
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { OutboundFetch } from '../../outbound/index.ts';
import { fetchDiscovery, logDiscoveryFailure, type OidcMetadata } from './discovery.ts';
import { verifyIdToken, type IdTokenClaims } from './id-token.ts';

export type { OidcMetadata } from './discovery.ts';


/** The identity provider failed or answered something we cannot trust. */
export class SsoFailed extends AppError {
  constructor(reason: string) {
    super('unauthorized', 'SSO_FAILED', 'Single sign-on failed', { reason });
  }
}

/** What talking to the provider needs: the guarded fetch, and the log that hears why it failed. */
export interface OidcNet {
  fetch: OutboundFetch;
  log: Logger;
}

/** Reads the provider's discovery document and checks it names the configured issuer. */
export async function discover(net: OidcNet, issuer: string): Promise<OidcMetadata> {
  const found = await fetchDiscovery(net.fetch, issuer);
  logDiscoveryFailure(net.log, issuer, found);
  if (!found.ok) throw new SsoFailed(found.problem);
  return found.meta;
}

/** Fresh state, nonce and PKCE verifier. */
export function newLoginSecrets(): { state: string; nonce: string; codeVerifier: string; codeChallenge: string } {
  const codeVerifier = randomBytes(32).toString('base64url');
  return {
    state: randomBytes(32).toString('base64url'),
    nonce: randomBytes(32).toString('base64url'),
    codeVerifier,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

/** The URL that sends the browser to the provider. */
export function authorizationUrl(meta: OidcMetadata, p: { clientId: string; redirectUri: string; scope: string; state: string; nonce: string; codeChallenge: string }): string {
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    scope: p.scope,
    state: p.state,
    nonce: p.nonce,
    code_challenge: p.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** Exchanges the code and verifies the id_token (signature, issuer, audience, expiry, nonce). */
export async function exchangeCode(
  net: OidcNet,
  meta: OidcMetadata,
  clock: Clock,
  p: { clientId: string; clientSecret: string | undefined; redirectUri: string; code: string; codeVerifier: string; nonce: string },
): Promise<IdTokenClaims> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri, code_verifier: p.codeVerifier });
  if (p.clientSecret) {
    headers['authorization'] = `Basic ${Buffer.from(`${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', p.clientId);
  }
  const idToken = await redeemCode(net, meta.token_endpoint, { headers, body: form.toString() });
  try {
    const payload = await verifyIdToken(idToken, { fetch: net.fetch, jwksUri: meta.jwks_uri, issuer: meta.issuer, audience: p.clientId, nowMs: clock.now() });
    if (payload['nonce'] !== p.nonce) throw new SsoFailed('nonce_mismatch');
    return payload;
  } catch (err) {
    if (err instanceof SsoFailed) throw err;
    net.log.warn({ err, issuer: meta.issuer }, 'SSO id_token refused');
    throw new SsoFailed('invalid_id_token');
  }
}

/** Posts the code to the token endpoint; any failure (refused address, network, HTTP, no id_token) is one. */
async function redeemCode(net: OidcNet, tokenEndpoint: string, req: { headers: Record<string, string>; body: string }): Promise<string> {
  try {
    const res = await net.fetch(tokenEndpoint, { method: 'POST', headers: req.headers, body: req.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    const body = (await res.json().catch(() => ({}))) as { id_token?: unknown };
    if (res.ok && typeof body.id_token === 'string') return body.id_token;
    net.log.warn({ token_endpoint: tokenEndpoint, status: res.status }, 'SSO code exchange refused');
  } catch (err) {
    net.log.warn({ err, token_endpoint: tokenEndpoint }, 'SSO code exchange failed');
  }
  throw new SsoFailed('token_exchange_failed');
}
