// Checks an OpenID Connect id_token with jsonwebtoken, the service's one JWT library: the provider signs
// with asymmetric keys it publishes (and rotates) at its jwks_uri. Node reads a JWK as a public key
// itself; the keys of an issuer are kept for ten minutes and read again once when a token names a key
// id that is not among them (a rotation).
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { OutboundFetch } from '../../outbound/index.ts';

/** The claims of a verified id_token. */
export type IdTokenClaims = jwt.JwtPayload;

interface Jwk {
  kid?: string;
  kty: string;
  use?: string;
  alg?: string;
}

/** What an OpenID provider may sign id_tokens with, that jsonwebtoken verifies; never `none` or HMAC. */
const ALGORITHMS: jwt.Algorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];
const KEYS_TTL_MS = 10 * 60_000;
const MAX_JWKS_BYTES = 256 * 1024;
const cache = new Map<string, { readAt: number; keys: Jwk[] }>();

async function readKeys(fetch: OutboundFetch, jwksUri: string): Promise<Jwk[]> {
  const res = await fetch(jwksUri, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (!res.ok || text.length > MAX_JWKS_BYTES) throw new Error('the issuer’s keys could not be read');
  const keys = (JSON.parse(text) as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error('the issuer’s key set has no keys');
  return keys as Jwk[];
}

async function keysOf(fetch: OutboundFetch, jwksUri: string, fresh: boolean): Promise<Jwk[]> {
  const hit = cache.get(jwksUri);
  // The cache is for the network's sake, so it ages by the real time, not the service clock.
  if (hit && !fresh && Date.now() - hit.readAt < KEYS_TTL_MS) return hit.keys;
  const keys = await readKeys(fetch, jwksUri);
  cache.set(jwksUri, { readAt: Date.now(), keys });
  return keys;
}

const pick = (keys: Jwk[], kid: string | undefined, alg: string) =>
  keys.find((k) => (k.use === undefined || k.use === 'sig') && (kid === undefined || k.kid === kid) && (k.alg === undefined || k.alg === alg));

/** Verifies signature, issuer, audience and times (60 s tolerance); throws on any failure. The keys come through the guarded `fetch`. */
export async function verifyIdToken(token: string, p: { fetch: OutboundFetch; jwksUri: string; issuer: string; audience: string; nowMs: number }): Promise<IdTokenClaims> {
  const decoded = jwt.decode(token, { complete: true });
  const alg = decoded?.header.alg as jwt.Algorithm | undefined;
  if (!decoded || typeof decoded.payload === 'string' || !alg || !ALGORITHMS.includes(alg)) throw new Error('not a signed id_token');
  const kid = decoded.header.kid;
  const jwk = pick(await keysOf(p.fetch, p.jwksUri, false), kid, alg) ?? pick(await keysOf(p.fetch, p.jwksUri, true), kid, alg);
  if (!jwk) throw new Error('no key of the issuer matches the id_token');
  const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  let claims: string | IdTokenClaims;
  try {
    claims = jwt.verify(token, key, { algorithms: [alg], issuer: p.issuer, audience: p.audience, clockTimestamp: Math.floor(p.nowMs / 1000), clockTolerance: 60 });
  } catch (err) {
    // jsonwebtoken's own error classes are not Errors to every caller: one plain Error with its reason.
    throw new Error(`invalid id_token: ${(err as { message?: string }).message ?? 'unreadable'}`);
  }
  if (typeof claims === 'string') throw new Error('not a JSON id_token');
  return claims;
}
