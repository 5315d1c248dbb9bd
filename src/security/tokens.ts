import { createHash, randomBytes } from 'node:crypto';

/** A new random secret: 32 bytes, base64url, behind a readable prefix such as `sxt_api_`. */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** The at-rest form of a high-entropy secret (token, link, code): its SHA-256, hex. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A random identifier, URL-safe. */
export function newId(bytes = 12): string {
  return randomBytes(bytes).toString('base64url');
}
