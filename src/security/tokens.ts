import { createHash, randomBytes, randomFillSync } from 'node:crypto';

/** A new random secret: 32 bytes, base64url, behind a readable prefix such as `sxt_api_`. */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** The at-rest form of a high-entropy secret (token, link, code): its SHA-256, hex. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// Identifiers come from a pool of random bytes refilled 4 KiB at a time, as crypto.randomUUID does:
// each randomBytes call costs ~10 µs of OpenSSL overhead here, several per request on hot paths.
// Secrets (newSecret) still get bytes of their own.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/**
 * A random identifier, URL-safe, never starting with `-`: people pass ids to the command line, where
 * `-Pm3...` would be read as an option (1 id in 64 otherwise). Such a draw is drawn again, so the
 * first character stays uniform over the other 63.
 */
export function newId(bytes = 12): string {
  for (;;) {
    if (poolOffset + bytes > pool.length) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    const id = pool.toString('base64url', poolOffset, poolOffset + bytes);
    poolOffset += bytes;
    if (id.charCodeAt(0) !== 45) return id;
  }
}
