// The service's secrets (session key, encryption key, cookie keys): what the environment sets, else what
// an earlier start generated and kept in the data directory, else generated now and kept there. It reads
// no environment itself: config.ts hands it the variables.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  /** HS256 key for session and short-lived JWTs. */
  jwtKey: string;
  /** 32-byte key (base64) for encryption at rest (TOTP secrets, warehouse credentials). */
  encryptionKey: string;
  /** Keys for signed cookies. */
  cookieKeys: string[];
}

/** The secrets' variables as config.ts read them from the environment. */
export interface SecretEnv {
  SEXTANT_JWT_SECRET?: string | undefined;
  SEXTANT_ENCRYPTION_KEY?: string | undefined;
  SEXTANT_COOKIE_KEYS?: string | undefined;
}

/** The secrets from the environment, else from `<data dir>/secrets.json`, else generated once and kept there (mode 600), with a warning. */
export function loadSecrets(dataDir: string, e: SecretEnv, warnings: string[]): Secrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
  const generated: string[] = [];
  const pick = (name: string, fromEnv: string | undefined, fromFile: string | undefined, make: () => string) => {
    if (fromEnv) return fromEnv;
    if (fromFile) return fromFile;
    generated.push(name);
    return make();
  };
  const encryptionKey = pick('SEXTANT_ENCRYPTION_KEY', e.SEXTANT_ENCRYPTION_KEY, stored.encryptionKey, () =>
    randomBytes(32).toString('base64'),
  );
  if (Buffer.from(encryptionKey, 'base64').length !== 32) {
    throw new Error('Invalid configuration:\n  SEXTANT_ENCRYPTION_KEY: must be 32 bytes, base64-encoded');
  }
  const secrets: Secrets = {
    jwtKey: pick('SEXTANT_JWT_SECRET', e.SEXTANT_JWT_SECRET, stored.jwtKey, () => randomBytes(48).toString('base64url')),
    encryptionKey,
    cookieKeys: e.SEXTANT_COOKIE_KEYS
      ? e.SEXTANT_COOKIE_KEYS.split(',')
      : (stored.cookieKeys ?? (generated.push('SEXTANT_COOKIE_KEYS'), [randomBytes(32).toString('base64url')])),
  };
  if (generated.length > 0) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  if (!e.SEXTANT_JWT_SECRET || !e.SEXTANT_ENCRYPTION_KEY || !e.SEXTANT_COOKIE_KEYS) {
    warnings.push(
      `secrets not set in the environment are kept in ${file}; set SEXTANT_JWT_SECRET, SEXTANT_ENCRYPTION_KEY and SEXTANT_COOKIE_KEYS in production`,
    );
  }
  return secrets;
}
