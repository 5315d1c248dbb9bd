import test from 'ava';
import { organizationInsert, userInsert, membershipUpsert, type Principal } from '../../../src/auth/index.ts';
import { sqliteNow } from '../../helpers/sqlite-now.ts';
import { completeCliLogin, pollCliLogin, startCliLogin, type CliLoginDeps } from '../../../src/auth/tokens/index.ts';
import { FakeClock } from '../../../src/clock.ts';
import { AppError } from '../../../src/errors.ts';
import { createSecretBox } from '../../../src/security/index.ts';
import { openStore, sqliteExecutor } from '../../../src/store/index.ts';

function setup(maxLive?: number) {
  const store = openStore({ file: ':memory:' });
  const clock = new FakeClock();
  const deps: CliLoginDeps = {
    store: sqliteExecutor(store.db),
    clock,
    secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')),
    ttlMs: 600_000,
    baseUrl: 'https://sextant.example',
    ...(maxLive === undefined ? {} : { maxLive }),
  };
  sqliteNow(store.db, (x) => organizationInsert(x, clock, { id: 'o1', name: 'O1' }));
  const user = sqliteNow(store.db, (x) => userInsert(x, clock, { email: 'a@example.com' }))[0]!;
  sqliteNow(store.db, (x) => membershipUpsert(x, clock, { userId: user.id, orgId: 'o1', role: 'user' }));
  const principal: Principal = { userId: user.id, email: user.email, orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
  return { deps, principal, store };
}

test('starting refuses with CLI_LOGIN_BUSY once the ceiling of live sign-ins is reached, until they expire', async (t) => {
  const { deps } = setup(3);
  for (let i = 0; i < 3; i++) await startCliLogin(deps);
  const err = await t.throwsAsync(() => startCliLogin(deps), { instanceOf: AppError });
  t.is(err?.code, 'CLI_LOGIN_BUSY');
  t.is(err?.kind, 'rate_limited');
  (deps.clock as FakeClock).advance(600_000);
  await t.notThrowsAsync(() => startCliLogin(deps));
});

test('the authorize URL is built on the configured base URL', async (t) => {
  const { deps } = setup();
  t.regex((await startCliLogin(deps)).authorize_url, /^https:\/\/sextant\.example\/cli\/authorize\?code=[\w-]+$/);
});

test('the held token is sealed and handed over once', async (t) => {
  const { deps, principal } = setup();
  const s = await startCliLogin(deps);
  await completeCliLogin(deps, principal, s.code);
  const first = await pollCliLogin(deps, s.code);
  t.is(first.status, 'complete');
  const again = await t.throwsAsync(() => pollCliLogin(deps, s.code), { instanceOf: AppError });
  t.is(again?.code, 'CLI_LOGIN_NOT_FOUND');
});

test('of 10 concurrent approvals of one sign-in, one mints the token and the others answer 409', async (t) => {
  const { deps, principal, store } = setup();
  const s = await startCliLogin(deps);
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => completeCliLogin(deps, principal, s.code)));
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  t.deepEqual(
    outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as AppError).code] : [])),
    Array.from({ length: 9 }, () => 'CLI_LOGIN_ALREADY_DECIDED'),
  );
  t.is(store.db.prepare("SELECT COUNT(*) FROM api_tokens WHERE kind = 'cli'").pluck().get(), 1);
  t.is((await pollCliLogin(deps, s.code)).status, 'complete');
});
