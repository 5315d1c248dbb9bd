// The whole API served from PostgreSQL: one in-process app on a fresh database, every route group
// exercised once on its success path and its main failure path (the route tests run on SQLite).
import anyTest, { type TestFn } from 'ava';
import { startPgTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../helpers/api.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';

const test = anyTest as TestFn<{ app?: TestApp }>;

test.before(async (t) => {
  t.context.app = await startPgTestApp({ SEXTANT_BCRYPT_COST: '4' });
});
test.after.always(async (t) => {
  await t.context.app?.stop();
});

/** The shared app, or undefined (a logged skip) when PostgreSQL is absent. */
function pgApp(t: Parameters<Parameters<typeof test>[1]>[0]): TestApp | undefined {
  if (!t.context.app) t.log(SKIP_PG_STORE);
  return t.context.app;
}

test('health, readiness and metrics answer on PostgreSQL', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  t.is(a.app.services.store.dialect, 'postgres');
  t.is((await call(a, 'GET', '/api/health')).status, 200);
  t.is((await call(a, 'GET', '/api/ready')).status, 200);
});
