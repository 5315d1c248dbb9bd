// The OAuth signing key on both dialects: replicas starting together end with one stored key and all
// sign with it (on PostgreSQL `other` is a second pool standing for a second replica), and a key
// stored before, under any row id, is kept rather than replaced.
import { sql } from 'kysely';
import { loadOrCreateSigningKey } from '../../../src/auth/oauth/signing-key.ts';
import { FakeClock } from '../../../src/clock.ts';
import { createSecretBox } from '../../../src/security/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

const box = createSecretBox(Buffer.alloc(32, 1).toString('base64'));

dialectTest('two replicas starting at once end with one signing key and both sign with it', async (t, { x, other }) => {
  const clock = new FakeClock();
  const keys = await Promise.all([loadOrCreateSigningKey(x, clock, box), loadOrCreateSigningKey(other, clock, box)]);
  t.is(keys[0].kid, keys[1].kid);
  t.is(keys[0].d, keys[1].d);
  const rows = await x.all(sql<{ sealed_jwk: string }>`SELECT sealed_jwk FROM oauth_keys`);
  t.is(rows.length, 1);
  t.is((JSON.parse(box.open(rows[0]!.sealed_jwk)) as { kid: string }).kid, keys[0].kid);
  t.false(rows[0]!.sealed_jwk.includes(String(keys[0].d)), 'sealed at rest');
});

dialectTest('a restart reuses the stored key, including one stored before under its kid as row id', async (t, { x, other }) => {
  const clock = new FakeClock();
  const jwk = { kty: 'RSA', kid: 'oldkid01', d: 'secret' };
  await x.run(sql`INSERT INTO oauth_keys (id, sealed_jwk, created_at) VALUES ('oldkid01', ${box.seal(JSON.stringify(jwk))}, 0)`);
  clock.advance(1000);
  t.like(await loadOrCreateSigningKey(other, clock, box), jwk);
  t.like(await loadOrCreateSigningKey(x, clock, box), jwk);
  t.is((await x.all(sql`SELECT id FROM oauth_keys`)).length, 1);
});

dialectTest(
  'of keys stored in one millisecond the one whose id is last by its bytes signs, whatever the collation of the database',
  async (t, { x }) => {
    for (const kid of ['a-key', 'B-key']) await x.run(sql`INSERT INTO oauth_keys (id, sealed_jwk, created_at) VALUES (${kid}, ${box.seal(JSON.stringify({ kty: 'RSA', kid }))}, 7)`);
    t.is((await loadOrCreateSigningKey(x, new FakeClock(), box)).kid, 'a-key');
  },
  { pgCollation: 'linguistic' },
);

dialectTest('the signing key is generated once, sealed at rest and reused', async (t, { x }) => {
  const clock = new FakeClock();
  const first = await loadOrCreateSigningKey(x, clock, box);
  const again = await loadOrCreateSigningKey(x, clock, box);
  t.is(again.kid, first.kid);
  t.is(again.d, first.d);
  const stored = await x.all<{ sealed_jwk: string }>(sql`SELECT sealed_jwk FROM oauth_keys`);
  t.is(stored.length, 1);
  t.false(stored[0]!.sealed_jwk.includes(String(first.d)));
  t.regex(stored[0]!.sealed_jwk, /^v1\./);
});
