// The authorization server's signing key: generated once, kept sealed in SQLite, so restarts keep
// issuing verifiable tokens and no key ever sits in clear text on disk.
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { newId, type SecretBox } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';

/** The private JWK the provider signs with; created and stored on first use. */
export function loadOrCreateSigningKey(db: Db, clock: Clock, box: SecretBox): JsonWebKey & { kid: string } {
  const row = db.prepare('SELECT id, sealed_jwk FROM oauth_keys ORDER BY created_at DESC LIMIT 1').get() as { id: string; sealed_jwk: string } | undefined;
  if (row) return JSON.parse(box.open(row.sealed_jwk)) as JsonWebKey & { kid: string };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = newId(8);
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  db.prepare('INSERT INTO oauth_keys (id, sealed_jwk, created_at) VALUES (?, ?, ?)').run(kid, box.seal(JSON.stringify(jwk)), clock.now());
  return jwk;
}
