// /api/health answers only when the database answers, whether the store pings synchronously (SQLite:
// the answer comes back without a promise) or through a promise (PostgreSQL).
import test from 'ava';
import type { Services } from '../../src/compose/services.ts';
import { AppError } from '../../src/errors.ts';
import { healthRoutes } from '../../src/gateway/routes/health.ts';

function healthWith(ping: () => void | Promise<void>) {
  const [route] = healthRoutes({ store: { ping }, config: { version: '1.2.3' } } as unknown as Services);
  return () => (route!.handler as () => unknown)();
}

const ok = { status: 'ok', database: 'ok', version: '1.2.3' };

const codeOf = async (answer: () => unknown) => {
  const err = await (async () => answer())().then(() => undefined, (e: unknown) => e);
  return err instanceof AppError ? err.code : err;
};

test('a store that answers synchronously gets the health answer without a promise', (t) => {
  t.deepEqual(healthWith(() => undefined)(), ok);
});

test('a store that answers through a promise gets the same health answer', async (t) => {
  const answer = healthWith(async () => undefined)();
  t.true(answer instanceof Promise);
  t.deepEqual(await answer, ok);
});

test('health is unavailable when the ping throws or rejects', async (t) => {
  const failing = () => {
    throw new Error('database is closed');
  };
  t.is(await codeOf(healthWith(failing)), 'DATABASE_UNAVAILABLE');
  t.is(await codeOf(healthWith(async () => failing())), 'DATABASE_UNAVAILABLE');
});
