import test from 'ava';
import { FakeClock } from '../../src/clock.ts';
import { loadOrCreateSigningKey } from '../../src/auth/oauth/signing-key.ts';
import { interactionCreatedAt, purgeExpiredOAuthModels, sqliteAdapterFactory } from '../../src/auth/oauth/sqlite-adapter.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openStore } from '../../src/store/index.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';

const setup = () => {
  const store = openStore({ file: ':memory:' });
  const clock = new FakeClock();
  return { store, clock, adapter: sqliteAdapterFactory(store.db, clock) };
};

test('the adapter stores, finds, consumes and destroys models, with expiry on the injected clock', async (t) => {
  const { clock, adapter } = setup();
  const codes = adapter('AuthorizationCode');
  await codes.upsert('c1', { grantId: 'g1', clientId: 'cl', exp: 1 }, 60);
  t.like(await codes.find('c1'), { grantId: 'g1' });
  t.is(await adapter('AccessToken').find('c1'), undefined);
  await codes.consume('c1');
  t.truthy((await codes.find('c1'))?.consumed);
  clock.advance(60_000);
  t.is(await codes.find('c1'), undefined);
  await adapter('Client').upsert('cl', { client_id: 'cl' });
  clock.advance(10 * 365 * 24 * 3600_000);
  t.like(await adapter('Client').find('cl'), { client_id: 'cl' });
  await adapter('Client').destroy('cl');
  t.is(await adapter('Client').find('cl'), undefined);
});

test('revoking by grant removes only that grant’s artifacts of the model', async (t) => {
  const { adapter } = setup();
  const at = adapter('AccessToken');
  await at.upsert('a1', { grantId: 'g1' }, 3600);
  await at.upsert('a2', { grantId: 'g2' }, 3600);
  await at.revokeByGrantId('g1');
  t.is(await at.find('a1'), undefined);
  t.truthy(await at.find('a2'));
});

test('sessions are found by uid, and an interaction keeps its first creation time', async (t) => {
  const { store, clock, adapter } = setup();
  await adapter('Session').upsert('s1', { uid: 'u1', accountId: 'x' }, 100);
  t.like(await adapter('Session').findByUid('u1'), { accountId: 'x' });
  const created = clock.now();
  await adapter('Interaction').upsert('i1', { uid: 'i1' }, 600);
  clock.advance(5000);
  await adapter('Interaction').upsert('i1', { uid: 'i1', result: {} }, 600);
  t.is(await interactionCreatedAt({ store: sqliteExecutor(store.db) }, 'i1'), created);
});

test('expired rows are purged, and after a week so are clients that never got a grant', async (t) => {
  const { store, clock, adapter } = setup();
  await adapter('AccessToken').upsert('a1', {}, 1);
  await adapter('Client').upsert('unused', { client_id: 'unused' });
  await adapter('Client').upsert('used', { client_id: 'used' });
  await adapter('Grant').upsert('g1', { clientId: 'used', accountId: 'u:o' }, 365 * 24 * 3600);
  clock.advance(1000);
  t.is(purgeExpiredOAuthModels(store.db, clock), 1);
  clock.advance(7 * 24 * 3600_000);
  t.is(purgeExpiredOAuthModels(store.db, clock), 1);
  t.is(await adapter('Client').find('unused'), undefined);
  t.truthy(await adapter('Client').find('used'));
});

test('the signing key is generated once, sealed at rest and reused', async (t) => {
  const { store, clock } = setup();
  const box = createSecretBox(Buffer.alloc(32, 1).toString('base64'));
  const first = await loadOrCreateSigningKey(sqliteExecutor(store.db), clock, box);
  const again = await loadOrCreateSigningKey(sqliteExecutor(store.db), clock, box);
  t.is(again.kid, first.kid);
  t.is(again.d, first.d);
  const stored = store.db.prepare('SELECT sealed_jwk FROM oauth_keys').pluck().get() as string;
  t.false(stored.includes(String(first.d)));
  t.regex(stored, /^v1\./);
});
