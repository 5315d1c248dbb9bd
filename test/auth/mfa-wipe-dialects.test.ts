// Wiping MFA gives the same result on SQLite and PostgreSQL: every TOTP field and recovery code of
// the user gone, and with `endSessions` their sessions ended and older JWTs voided, in one batch;
// another user's MFA and sessions stay.
import { sql } from 'kysely';
import { wipeMfa } from '../../src/auth/mfa/second-factor.ts';
import { FakeClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';
import { secretBox, seedUser } from '../helpers/single-use.ts';

/** u1 (seeded with TOTP) and u2, each with a live session and a recovery code. */
async function seed(x: Executor): Promise<void> {
  await seedUser(x);
  await x.run(sql`INSERT INTO users (id, email, created_at, totp_secret, totp_enabled_at) VALUES ('u2', 'b@example.com', 0, ${secretBox.seal('x')}, 0)`);
  for (const user of ['u1', 'u2']) {
    await x.run(sql`INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (${`s-${user}`}, ${user}, 0, 9999999999999)`);
    await x.run(sql`INSERT INTO mfa_recovery_codes (id, user_id, code_hash, created_at) VALUES (${`r-${user}`}, ${user}, 'h', 0)`);
  }
}

const state = async (x: Executor, user: string) => ({
  user: await x.one(sql<{ totp_secret: string | null; totp_enabled_at: number | null; token_version: number }>`SELECT totp_secret, totp_enabled_at, token_version FROM users WHERE id = ${user}`),
  codes: (await x.all(sql`SELECT id FROM mfa_recovery_codes WHERE user_id = ${user}`)).length,
  live: (await x.all(sql`SELECT id FROM sessions WHERE user_id = ${user} AND ended_at IS NULL`)).length,
});

dialectTest("wiping MFA clears the user's TOTP and recovery codes and keeps sessions unless asked", async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  await wipeMfa({ store: x, clock }, 'u1');
  const u1 = await state(x, 'u1');
  t.like(u1, { codes: 0, live: 1 });
  t.like(u1.user, { totp_secret: null, totp_enabled_at: null });
  t.is(Number(u1.user?.token_version), 0);
  const u2 = await state(x, 'u2');
  t.like(u2, { codes: 1, live: 1 });
  t.truthy(u2.user?.totp_secret);
});

dialectTest('wiping MFA with endSessions ends every session of the user and voids their JWTs, only theirs', async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  await wipeMfa({ store: x, clock }, 'u1', { endSessions: true });
  const u1 = await state(x, 'u1');
  t.like(u1, { codes: 0, live: 0 });
  t.is(Number(u1.user?.token_version), 1);
  const u2 = await state(x, 'u2');
  t.like(u2, { codes: 1, live: 1 });
  t.is(Number(u2.user?.token_version), 0);
});
