// The authorization server's signing key: generated once, kept sealed in the database, so restarts keep
// issuing verifiable tokens and no key ever sits in clear text on disk. Replicas starting together may
// each generate one; the first key's row has a fixed id, so one insert wins (ON CONFLICT DO NOTHING)
// and every replica then signs with the stored winner, never with a key of its own that others lack.
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import { newId, type SecretBox } from '../../security/index.ts';
import { byteOrder, type Executor } from '../../store/index.ts';

type SigningJwk = JsonWebKey & { kid: string };

/** The row id of the first key; a later rotation would add rows of other ids (the newest is used). */
const FIRST_KEY_ID = 'first';

function newSigningJwk(): SigningJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: newId(8), use: 'sig', alg: 'RS256' };
}

function newestKey(x: Executor): Promise<{ sealed_jwk: string } | undefined> {
  return x.one(sql<{ sealed_jwk: string }>`SELECT sealed_jwk FROM oauth_keys ORDER BY created_at DESC, ${byteOrder(x, 'id')} DESC LIMIT 1`);
}

/** The private JWK the provider signs with; created and stored on first use, the same for every replica. */
export async function loadOrCreateSigningKey(x: Executor, clock: Clock, box: SecretBox): Promise<SigningJwk> {
  let row = await newestKey(x);
  if (!row) {
    const sealed = box.seal(JSON.stringify(newSigningJwk()));
    await x.run(sql`INSERT INTO oauth_keys (id, sealed_jwk, created_at) VALUES (${FIRST_KEY_ID}, ${sealed}, ${clock.now()}) ON CONFLICT (id) DO NOTHING`);
    row = await newestKey(x);
  }
  if (!row) throw new Error('the OAuth signing key was neither found nor stored');
  return JSON.parse(box.open(row.sealed_jwk)) as SigningJwk;
}
