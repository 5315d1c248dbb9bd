// The one hasher for secrets people type or keep: bcrypt (bcryptjs), which the interface already fixes
// for MFA recovery codes, so passwords and codes share one scheme and one cost setting. Hashes of the
// earlier scrypt format still verify; `needsRehash` tells sign-in to store the bcrypt form instead.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

/** Default bcrypt cost (SEXTANT_BCRYPT_COST overrides it where a config is at hand). */
export const DEFAULT_HASH_COST = 10;

/**
 * bcrypt reads at most 72 bytes: a password (up to 1,024 characters) is first reduced to a 44-character
 * SHA-256 digest, so every character counts and no NUL byte reaches bcrypt.
 */
const digest = (password: string) => createHash('sha256').update(password.normalize('NFKC')).digest('base64');

const isBcrypt = (stored: string) => /^\$2[aby]\$\d{2}\$/.test(stored);

/** A bcrypt hash of a short random secret (a recovery code). */
export function hashShortSecret(secret: string, cost = DEFAULT_HASH_COST): Promise<string> {
  return bcrypt.hash(secret, cost);
}

/** Checks a short random secret against its bcrypt hash. */
export function verifyShortSecret(secret: string, stored: string): Promise<boolean> {
  return isBcrypt(stored) ? bcrypt.compare(secret, stored) : Promise.resolve(false);
}

/** The stored form of a new password. */
export function hashPassword(password: string, cost = DEFAULT_HASH_COST): Promise<string> {
  return hashShortSecret(digest(password), cost);
}

/** Checks a password against a stored hash (bcrypt, or the earlier scrypt format); false for malformed hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (isBcrypt(stored)) return bcrypt.compare(digest(password), stored);
  return verifyScrypt(password, stored);
}

/** True for a hash in the earlier format or below the current cost: sign-in stores a new one. */
export function needsRehash(stored: string, cost = DEFAULT_HASH_COST): boolean {
  return !isBcrypt(stored) || bcrypt.getRounds(stored) < cost;
}

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

/** The earlier format, `scrypt$N$r$p$salt$hash`: verified in constant time, never written any more. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [alg, n, rr, pp, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

// A stored hash to verify against when the account does not exist, so that a sign-in for an unknown
// email takes as long as one for a known email (at the cost new passwords get).
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(cost = DEFAULT_HASH_COST): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(randomBytes(16).toString('hex'), cost)));
  return hash;
}
