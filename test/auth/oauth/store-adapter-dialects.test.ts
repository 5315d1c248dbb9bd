// The OAuth server's storage gives the same answers on SQLite and PostgreSQL: models stored, found (by
// id or uid) and expired by the injected clock, revoked by grant, purged, and consumed exactly once,
// even by two replicas at once.
import { FakeClock } from '../../../src/clock.ts';
import { interactionCreatedAt, purgeExpiredOAuthModels, storeAdapterFactory } from '../../../src/auth/oauth/store-adapter.ts';
import type { Executor } from '../../../src/store/index.ts';
import { dialectTest } from '../../helpers/executors.ts';

class AlreadyConsumed extends Error {}

const adapterOn = (store: Executor, clock: FakeClock) => storeAdapterFactory({ store, clock, alreadyConsumed: (model) => new AlreadyConsumed(model) });

dialectTest('the adapter stores, finds, consumes and destroys models, with expiry on the injected clock', async (t, { x }) => {
  const clock = new FakeClock();
  const adapter = adapterOn(x, clock);
  const codes = adapter('AuthorizationCode');
  await codes.upsert('c1', { grantId: 'g1', clientId: 'cl', exp: 1 }, 60);
  t.like(await codes.find('c1'), { grantId: 'g1' });
  t.is(await adapter('AccessToken').find('c1'), undefined);
  t.is(await codes.findByUserCode('c1'), undefined);
  t.is((await codes.find('c1'))?.consumed, undefined);
  await codes.consume('c1');
  t.is((await codes.find('c1'))?.consumed, Math.floor(clock.now() / 1000));
  clock.advance(60_000);
  t.is(await codes.find('c1'), undefined);
  await adapter('Client').upsert('cl', { client_id: 'cl' });
  clock.advance(10 * 365 * 24 * 3600_000);
  t.like(await adapter('Client').find('cl'), { client_id: 'cl' });
  await adapter('Client').destroy('cl');
  t.is(await adapter('Client').find('cl'), undefined);
});

dialectTest('a second consume of a code fails with the provider’s error, and so does consuming one that is gone', async (t, { x }) => {
  const clock = new FakeClock();
  const codes = adapterOn(x, clock)('AuthorizationCode');
  await codes.upsert('c1', { grantId: 'g1' }, 60);
  await codes.consume('c1');
  const first = (await codes.find('c1'))?.consumed;
  clock.advance(1000);
  const again = await t.throwsAsync(codes.consume('c1'), { instanceOf: AlreadyConsumed });
  t.is(again?.message, 'AuthorizationCode');
  t.is((await codes.find('c1'))?.consumed, first, 'the first consumption stands');
  await t.throwsAsync(codes.consume('never-issued'), { instanceOf: AlreadyConsumed });
});

dialectTest('two replicas consuming one refresh token at once: exactly one succeeds', async (t, { x, other }) => {
  const clock = new FakeClock();
  await adapterOn(x, clock)('RefreshToken').upsert('r1', { grantId: 'g1' }, 3600);
  const outcomes = await Promise.allSettled([adapterOn(x, clock)('RefreshToken').consume('r1'), adapterOn(other, clock)('RefreshToken').consume('r1')]);
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  const lost = outcomes.find((o) => o.status === 'rejected');
  t.true(lost?.status === 'rejected' && lost.reason instanceof AlreadyConsumed);
});

dialectTest('revoking by grant removes only that grant’s artifacts of the model', async (t, { x }) => {
  const adapter = adapterOn(x, new FakeClock());
  const at = adapter('AccessToken');
  await at.upsert('a1', { grantId: 'g1' }, 3600);
  await at.upsert('a2', { grantId: 'g2' }, 3600);
  await adapter('RefreshToken').upsert('r1', { grantId: 'g1' }, 3600);
  await at.revokeByGrantId('g1');
  t.is(await at.find('a1'), undefined);
  t.truthy(await at.find('a2'));
  t.truthy(await adapter('RefreshToken').find('r1'), 'another model of the grant is revoked by its own call');
});

dialectTest('sessions are found by uid until they expire, and an interaction keeps its first creation time', async (t, { x }) => {
  const clock = new FakeClock();
  const adapter = adapterOn(x, clock);
  await adapter('Session').upsert('s1', { uid: 'u1', accountId: 'x' }, 100);
  t.like(await adapter('Session').findByUid('u1'), { accountId: 'x' });
  t.is(await adapter('Interaction').findByUid('u1'), undefined);
  const created = clock.now();
  await adapter('Interaction').upsert('i1', { uid: 'i1' }, 600);
  clock.advance(5000);
  await adapter('Interaction').upsert('i1', { uid: 'i1', result: {} }, 600);
  t.is(await interactionCreatedAt(x, 'i1'), created);
  t.like(await adapter('Interaction').find('i1'), { result: {} });
  t.is(await interactionCreatedAt(x, 'unknown'), undefined);
  clock.advance(100_000);
  t.is(await adapter('Session').findByUid('u1'), undefined);
});

dialectTest('expired rows are purged, and after a week so are clients that never got a grant', async (t, { x }) => {
  const clock = new FakeClock();
  const adapter = adapterOn(x, clock);
  await adapter('AccessToken').upsert('a1', {}, 1);
  await adapter('Client').upsert('unused', { client_id: 'unused' });
  await adapter('Client').upsert('used', { client_id: 'used' });
  await adapter('Grant').upsert('g1', { clientId: 'used', accountId: 'u:o' }, 365 * 24 * 3600);
  clock.advance(1000);
  t.is(await purgeExpiredOAuthModels(x, clock), 1);
  clock.advance(7 * 24 * 3600_000);
  t.is(await purgeExpiredOAuthModels(x, clock), 1);
  t.is(await adapter('Client').find('unused'), undefined);
  t.truthy(await adapter('Client').find('used'));
  t.truthy(await adapter('Grant').find('g1'));
});
