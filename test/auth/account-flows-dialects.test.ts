// The account flows give the same answers on SQLite and PostgreSQL, and each race they decide has one
// winner on PostgreSQL, where `other` is a second pool standing for a second replica: a reset,
// verification or MFA recovery link used twice at once, an MFA enrolment confirmed twice at once, two
// regenerations of recovery codes, one account mail request worked by two replicas, one address
// registered twice at once.
import { sql } from 'kysely';
import type { AccountDeps } from '../../src/auth/account/account-deps.ts';
import { processAccountMailRequests } from '../../src/auth/account/account-mail.ts';
import { issueAccountToken } from '../../src/auth/account/account-tokens.ts';
import { registerAccount, verificationMailFor, verifyEmail } from '../../src/auth/account/register.ts';
import { confirmPasswordReset, resetMailFor } from '../../src/auth/account/reset-password.ts';
import { getUser, type UserRow } from '../../src/auth/directory.ts';
import type { Principal } from '../../src/auth/index.ts';
import { confirmMfa, setupMfa } from '../../src/auth/mfa/enroll.ts';
import { regenerateRecoveryCodes } from '../../src/auth/mfa/manage.ts';
import { remainingRecoveryCodes } from '../../src/auth/mfa/recovery-codes.ts';
import { consumeMfaRecovery } from '../../src/auth/mfa/self-recovery.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import { createLogger } from '../../src/log.ts';
import { createMailQueue, listOutbox } from '../../src/mail/index.ts';
import { hashPassword, verifyPassword } from '../../src/security/index.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';
import { secretBox, totpAt } from '../helpers/single-use.ts';

const log = createLogger('silent');
const client = { ip: '203.0.113.7', userAgent: 'test' };
const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

/** The account dependencies of one replica: its own executor and its own mail queue (no transport: mail stays in the outbox). */
function depsOn(x: Executor, clock: FakeClock): AccountDeps {
  return {
    store: x,
    clock,
    jwtKey: 'k'.repeat(32),
    secretBox,
    mailer: createMailQueue({ store: x, clock, log }),
    mailLimits: { perAddressPerHour: 1000, perClientPerHour: 1000 },
    log,
    baseUrl: 'https://sextant.test',
    bcryptCost: 4,
  };
}

/** Organization o1 with user u1 (a@example.com, admin), who has a password. */
async function seedUser(x: Executor, password = 'an old passphrase 1'): Promise<UserRow> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'O1', 0)`);
  await x.run(sql`INSERT INTO users (id, email, name, password_hash, identity_kind, created_at) VALUES ('u1', 'a@example.com', 'Ann', ${await hashPassword(password, 4)}, 'password', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('u1', 'o1', 'admin', 0)`);
  return (await getUser(x, 'u1'))!;
}

const ann = { userId: 'u1', orgId: 'o1', baseOrgId: 'o1', email: 'a@example.com', role: 'admin', credential: 'session' } as Principal;

/** Runs both at once, one through each executor: the codes of the refusals, and how many succeeded. */
async function both(first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<{ won: number; refused: string[] }> {
  const outcomes = await Promise.allSettled([first(), second()]);
  return { won: outcomes.filter((o) => o.status === 'fulfilled').length, refused: outcomes.flatMap((o) => (o.status === 'rejected' ? [codeOf(o.reason)] : [])) };
}

const auditCount = async (x: Executor, action: string) => (await x.all(sql`SELECT id FROM audit_log WHERE action = ${action}`)).length;
const mailsTo = async (x: Executor, to: string) => (await listOutbox(x, 1000)).filter((m) => m.to === to);

dialectTest('a reset link used twice at once over two replicas sets one password, once', async (t, { x, other }) => {
  const clock = new FakeClock();
  const user = await seedUser(x);
  for (let trial = 0; trial < 5; trial++) {
    const mail = resetMailFor(depsOn(x, clock), user)!;
    await x.batch(mail.writes);
    const token = /Reset token: (\S+)/.exec(mail.message.text)![1]!;
    const passwords = [`first new passphrase ${trial}`, `second new passphrase ${trial}`];
    const { won, refused } = await both(
      () => confirmPasswordReset(depsOn(x, clock), { token, newPassword: passwords[0]! }),
      () => confirmPasswordReset(depsOn(other, clock), { token, newPassword: passwords[1]! }),
    );
    t.is(won, 1, `trial ${trial}`);
    t.deepEqual(refused, ['INVALID_TOKEN']);
    const hash = (await getUser(x, 'u1'))!.password_hash!;
    t.is((await Promise.all(passwords.map((p) => verifyPassword(p, hash)))).filter(Boolean).length, 1, 'the winner set its password');
  }
  t.is(await auditCount(x, 'password_reset'), 5);
});

dialectTest('a verification link used twice at once over two replicas verifies once', async (t, { x, other }) => {
  const clock = new FakeClock();
  const user = await seedUser(x);
  const mail = verificationMailFor(depsOn(x, clock), user)!;
  await x.batch(mail.writes);
  const token = /Verification token: (\S+)/.exec(mail.message.text)![1]!;
  const { won, refused } = await both(() => verifyEmail(depsOn(x, clock), token), () => verifyEmail(depsOn(other, clock), token));
  t.is(won, 1);
  t.deepEqual(refused, ['INVALID_TOKEN']);
  t.is((await getUser(x, 'u1'))!.email_verified_at, clock.now());
  t.is(await auditCount(x, 'email_verified'), 1);
});

dialectTest('an MFA recovery link used twice at once over two replicas wipes MFA once and mails the user and the admins once', async (t, { x, other }) => {
  const clock = new FakeClock();
  await seedUser(x);
  await x.run(sql`UPDATE users SET totp_secret = 'sealed', totp_enabled_at = 0 WHERE id = 'u1'`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u2', 'b@example.com', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('u2', 'o1', 'admin', 0)`);
  const data = { ip: client.ip, user_agent: client.userAgent, requested_at: 0, org_id: 'o1' };
  const token = await issueAccountToken(x, clock, { purpose: 'mfa_recovery', userId: 'u1', ttlMs: 60_000, data });
  const { won, refused } = await both(() => consumeMfaRecovery(depsOn(x, clock), token, client), () => consumeMfaRecovery(depsOn(other, clock), token, client));
  t.is(won, 1);
  t.deepEqual(refused, ['INVALID_TOKEN']);
  t.like(await getUser(x, 'u1'), { totp_secret: null, totp_enabled_at: null, token_version: 1 });
  t.is((await mailsTo(x, 'a@example.com')).length, 1);
  t.is((await mailsTo(x, 'b@example.com')).length, 1);
  t.is(await auditCount(x, 'mfa_recovery_completed'), 1);
});

dialectTest('an MFA enrolment confirmed twice at once over two replicas is enabled once, with one set of recovery codes', async (t, { x, other }) => {
  const clock = new FakeClock(1_800_000_000_000);
  await seedUser(x);
  const { secret } = await setupMfa(depsOn(x, clock), ann);
  const code = totpAt(clock, secret);
  const outcomes = await Promise.allSettled([confirmMfa(depsOn(x, clock), ann, code, client), confirmMfa(depsOn(other, clock), ann, code, client)]);
  const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  t.is(won.length, 1);
  t.true(outcomes.some((o) => o.status === 'rejected' && ['INVALID_MFA_CODE', 'MFA_ALREADY_ENABLED'].includes(codeOf(o.reason))));
  t.is(await remainingRecoveryCodes(x, 'u1'), won[0]!.recoveryCodes.length, "only the winner's codes are stored");
  t.is(await auditCount(x, 'mfa_enabled'), 1);
});

dialectTest('two regenerations of recovery codes at once over two replicas leave one set', async (t, { x, other }) => {
  const clock = new FakeClock(1_800_000_000_000);
  await seedUser(x, 'passphrase for mfa 1');
  const { secret } = await setupMfa(depsOn(x, clock), ann);
  const { recoveryCodes } = await confirmMfa(depsOn(x, clock), ann, totpAt(clock, secret), client);
  const regenerate = (ex: Executor, code: string) => () => regenerateRecoveryCodes(depsOn(ex, clock), ann, { code, password: 'passphrase for mfa 1' }, client);
  const { won } = await both(regenerate(x, recoveryCodes[0]!), regenerate(other, recoveryCodes[1]!));
  // Both win when both codes are spent before either set is replaced; when one replacement lands
  // first it voids the other's code, which then loses. Either way one set is left.
  t.true(won >= 1);
  t.is(await remainingRecoveryCodes(x, 'u1'), recoveryCodes.length, 'one set of codes, not two');
  t.is(await auditCount(x, 'mfa_recovery_codes_regenerated'), won);
});

dialectTest('account mail requests worked by two replicas at once are mailed once each, with one live link', async (t, { x, other }) => {
  const clock = new FakeClock();
  await seedUser(x);
  for (let i = 0; i < 10; i++) {
    await x.run(sql`INSERT INTO account_mail_requests (id, kind, email, created_at) VALUES (${`r${i}`}, ${i % 2 ? 'magic_link' : 'reset_password'}, 'a@example.com', ${i})`);
  }
  await Promise.all([processAccountMailRequests(depsOn(x, clock)), processAccountMailRequests(depsOn(other, clock)), processAccountMailRequests(depsOn(x, clock))]);
  t.is((await mailsTo(x, 'a@example.com')).length, 10);
  t.is((await x.all(sql`SELECT id FROM account_mail_requests`)).length, 0);
  const live = await x.all(sql<{ purpose: string }>`SELECT purpose FROM account_tokens WHERE used_at IS NULL ORDER BY purpose`);
  t.deepEqual(live.map((r) => r.purpose), ['magic_code', 'magic_link', 'reset_password'], 'each new mail voided the previous links');
});

dialectTest(
  'account mail requests of one millisecond are worked in the byte order of their ids whatever the collation of the database',
  async (t, { x }) => {
    await seedUser(x);
    await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u2', 'b@example.com', 0), ('u3', 'c@example.com', 0)`);
    for (const [id, email] of [['b-r', 'a@example.com'], ['B-r', 'b@example.com'], ['a-r', 'c@example.com']]) {
      await x.run(sql`INSERT INTO account_mail_requests (id, kind, email, created_at) VALUES (${id}, 'magic_link', ${email}, 5)`);
    }
    await processAccountMailRequests(depsOn(x, new FakeClock()));
    t.deepEqual((await listOutbox(x)).map((m) => m.to).reverse(), ['b@example.com', 'c@example.com', 'a@example.com']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('one address registered twice at once over two replicas makes one account, and its owner is told by mail', async (t, { x, other }) => {
  const clock = new FakeClock();
  const register = (ex: Executor) => () => registerAccount(depsOn(ex, clock), { email: 'new@example.com', password: 'a long new passphrase' }, client);
  const { won } = await both(register(x), register(other));
  t.is(won, 2, 'both answer alike, as for any known address');
  t.is((await x.all(sql`SELECT id FROM users WHERE email = 'new@example.com'`)).length, 1);
  t.is((await x.all(sql`SELECT user_id FROM memberships`)).length, 1);
  const subjects = (await mailsTo(x, 'new@example.com')).map((m) => m.subject).toSorted();
  t.is(subjects.length, 2);
  t.is(await auditCount(x, 'registered'), 1);
});
