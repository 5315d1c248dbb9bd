import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';
import type { Clock } from '../../clock.ts';

/** Purposes of first-party JWTs; a token minted for one purpose is refused for every other. */
export type JwtPurpose = 'session' | 'mfa_pending' | 'enrollment' | 'embedded' | 'recovery';

export interface JwtClaims {
  sub: string;
  /** Organization the token acts in. */
  org: string;
  /** token_version of the user when minted. */
  tv: number;
  /** Session id (sessions table) or other single record the token stands for. */
  sid?: string;
  [extra: string]: unknown;
}

const ISSUER = 'sextant';

/**
 * The longest lifetime (exp - iat) accepted per purpose. Every token this service signs carries both;
 * one without them, or living longer than its purpose allows, is refused even when its signature is
 * good (a leaked key or a careless signer must not mint tokens that never expire). Embedded tokens
 * are further bounded by their session row (SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS).
 */
export const MAX_LIFETIME_SECONDS: Record<JwtPurpose, number> = {
  session: 7 * 24 * 3600,
  mfa_pending: 5 * 60,
  enrollment: 15 * 60,
  embedded: 24 * 3600,
  recovery: 3600,
};

// jsonwebtoken turns a string secret into a key object on every call, which costs more than the
// HMAC itself; every authenticated request verifies a token, so the key object is made once per secret.
const keyObjects = new Map<string, KeyObject>();
function keyObject(key: string): KeyObject {
  let k = keyObjects.get(key);
  if (!k) keyObjects.set(key, (k = createSecretKey(Buffer.from(key, 'utf8'))));
  return k;
}

/** Signs a first-party HS256 token for one purpose. */
export function signJwt(key: string, clock: Clock, purpose: JwtPurpose, claims: JwtClaims, ttlSeconds: number): string {
  const iat = Math.floor(clock.now() / 1000);
  return jwt.sign({ ...claims, iat, exp: iat + ttlSeconds }, keyObject(key), { algorithm: 'HS256', issuer: ISSUER, audience: purpose });
}

// Tokens already verified, with their claims: a client sends the same session token with every
// request, and the signature check (jsonwebtoken's parsing and options, the HMAC) costs more than the
// rest of authenticating it. Only tokens that passed are kept, so only tokens this service signed can
// be in it; expiry is checked on every use. Bounded: the oldest entry leaves first.
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { key: string; purpose: JwtPurpose; claims: JwtClaims & { exp: number } }>();

/** Verifies signature, algorithm, issuer, purpose and expiry (against the injected clock); undefined if any fails. */
export function verifyJwt(key: string, clock: Clock, purpose: JwtPurpose, token: string): JwtClaims | undefined {
  const known = verified.get(token);
  if (known && known.key === key && known.purpose === purpose) {
    if (Math.floor(clock.now() / 1000) < known.claims.exp) return known.claims;
    verified.delete(token);
    return undefined;
  }
  const claims = verifyJwtSignature(key, clock, purpose, token);
  if (claims) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { key, purpose, claims: Object.freeze(claims) as JwtClaims & { exp: number } });
  }
  return claims;
}

function verifyJwtSignature(key: string, clock: Clock, purpose: JwtPurpose, token: string): JwtClaims | undefined {
  try {
    const claims = jwt.verify(token, keyObject(key), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: purpose,
      clockTimestamp: Math.floor(clock.now() / 1000),
    });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims['org'] !== 'string') return undefined;
    if (typeof claims['tv'] !== 'number') return undefined;
    const { iat, exp } = claims;
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > MAX_LIFETIME_SECONDS[purpose]) return undefined;
    if (iat > Math.floor(clock.now() / 1000) + 60) return undefined;
    return claims as unknown as JwtClaims;
  } catch {
    return undefined;
  }
}

/** Cheap shape test used to route a bearer value to JWT or API-token checking. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}
