// The sign-in throttle (issue 23) on a real store with a fake clock: per (account, address) pair a
// progressive delay, a high per-account ceiling, and an admin's unlock.
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNT_LIMIT, assertNotLimited, attemptKeys, clearAccountFailures, clearAllAccountFailures, recordFailure } from '../../../src/auth/credentials/rate-limit.ts';
import { FakeClock } from '../../../src/clock.ts';
import { RateLimited } from '../../../src/errors.ts';
import { openStore, sqliteExecutor } from '../../../src/store/index.ts';

function setup(t: { teardown(fn: () => void): void }) {
  const store = openStore({ file: join(mkdtempSync(join(tmpdir(), 'sextant-throttle-')), 'db.sqlite') });
  t.teardown(() => store.close());
  return { db: sqliteExecutor(store.db), clock: new FakeClock() };
}

/** Seconds to wait before the pair may try again, or 0 when it may try now. */
async function waitOf(db: ReturnType<typeof setup>['db'], clock: FakeClock, account: string, ip: string): Promise<number> {
  try {
    await assertNotLimited(db, clock, attemptKeys(account, ip));
    return 0;
  } catch (err) {
    if (err instanceof RateLimited) return err.retryAfterSeconds;
    throw err;
  }
}

test('five failures from an address are free, then the wait doubles after each failure up to fifteen minutes', async (t) => {
  const { db, clock } = setup(t);
  const fail = () => recordFailure(db, clock, attemptKeys('user-1', '10.0.0.1'));
  for (let i = 0; i < 5; i++) {
    t.is(await waitOf(db, clock, 'user-1', '10.0.0.1'), 0);
    await fail();
  }
  const waits: number[] = [];
  for (let i = 0; i < 12; i++) {
    const wait = await waitOf(db, clock, 'user-1', '10.0.0.1');
    waits.push(wait);
    clock.advance(wait * 1000);
    t.is(await waitOf(db, clock, 'user-1', '10.0.0.1'), 0);
    await fail();
  }
  t.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
});

test('a throttled address does not slow the owner down from their own address', async (t) => {
  const { db, clock } = setup(t);
  for (let i = 0; i < 20; i++) await recordFailure(db, clock, attemptKeys('user-1', '203.0.113.9'));
  t.true((await waitOf(db, clock, 'user-1', '203.0.113.9')) > 0);
  t.is((await waitOf(db, clock, 'user-1', '198.51.100.7')), 0);
});

test('an unknown address (keyed by the email typed) is throttled exactly like a known account', async (t) => {
  const { db, clock } = setup(t);
  const sequence = async (account: string) => {
    const out: number[] = [];
    for (let i = 0; i < 8; i++) {
      out.push((await waitOf(db, clock, account, '10.1.1.1')));
      await recordFailure(db, clock, attemptKeys(account, '10.1.1.1'));
    }
    return out;
  };
  t.deepEqual(await sequence('known-user-id'), await sequence('nobody@example.com'));
});

test('the per-account ceiling stops a guessing attack spread over many addresses, and ends with its window', async (t) => {
  const { db, clock } = setup(t);
  for (let i = 0; i < ACCOUNT_LIMIT.max; i++) await recordFailure(db, clock, attemptKeys('user-1', `10.2.${Math.floor(i / 4)}.${i % 4}`));
  t.true((await waitOf(db, clock, 'user-1', '192.0.2.1')) > 0);
  clock.advance(ACCOUNT_LIMIT.windowMs);
  t.is((await waitOf(db, clock, 'user-1', '192.0.2.1')), 0);
});

test("a success clears the account's counter and that address's pair; an admin's unlock clears every pair", async (t) => {
  const { db, clock } = setup(t);
  for (let i = 0; i < 9; i++) await recordFailure(db, clock, attemptKeys('user-1', '10.3.0.1'));
  for (let i = 0; i < 9; i++) await recordFailure(db, clock, attemptKeys('user-1', '10.3.0.2'));
  // A user id that contains LIKE wildcards is matched literally.
  for (let i = 0; i < 9; i++) await recordFailure(db, clock, attemptKeys('user_10', '10.3.0.1'));
  await clearAccountFailures(db, clock, 'user-1', '10.3.0.1');
  t.is((await waitOf(db, clock, 'user-1', '10.3.0.1')), 0);
  t.true((await waitOf(db, clock, 'user-1', '10.3.0.2')) > 0);
  // The unlock answers how many failures the account counted since its last success: one more, from a third address.
  await recordFailure(db, clock, attemptKeys('user-1', '10.3.0.3'));
  t.is(await clearAllAccountFailures(db, clock, 'user-1'), 1);
  t.is((await waitOf(db, clock, 'user-1', '10.3.0.2')), 0);
  t.true((await waitOf(db, clock, 'user_10', '10.3.0.1')) > 0);
  t.is(await clearAllAccountFailures(db, clock, 'user%'), 0);
  t.true((await waitOf(db, clock, 'user_10', '10.3.0.1')) > 0);
});
