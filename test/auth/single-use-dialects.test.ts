// The single-use credential stores give the same answers on SQLite and PostgreSQL: account tokens
// (spent once, expiry, groups, revocation), TOTP time steps, recovery codes and CLI sign-ins (start,
// decide, claim, expiry housekeeping).
import { sql } from 'kysely';
import { consumeAccountToken, issueAccountToken, issueAccountTokenWrites, peekAccountToken, revokeAccountTokens } from '../../src/auth/account/account-tokens.ts';
import { promotePendingSecret } from '../../src/auth/mfa/enroll.ts';
import { consumeRecoveryCode, recoveryCodeWrites, remainingRecoveryCodes, replaceRecoveryCodes } from '../../src/auth/mfa/recovery-codes.ts';
import { consumeTotp, spendTotpStep } from '../../src/auth/mfa/totp.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { expireCliLogins } from '../../src/auth/tokens/cli-login/cli-login-store.ts';
import { denyCliLogin, getCliLoginInfo } from '../../src/auth/tokens/cli-login/decide-cli-login.ts';
import { pollCliLogin } from '../../src/auth/tokens/cli-login/poll-cli-login.ts';
import { startCliLogin } from '../../src/auth/tokens/cli-login/start-cli-login.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import { hashShortSecret } from '../../src/security/index.ts';
import { dialectTest } from '../helpers/executors.ts';
import { approvedCliLogin, cliDeps, secretBox, seedUser, totpAt, totpHolder } from '../helpers/single-use.ts';

const approver = { userId: 'u1' } as Principal;

dialectTest('an account token is spent once, by its purpose, and not once it expired', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const token = await issueAccountToken(x, clock, { purpose: 'verify_email', userId: 'u1', ttlMs: 1000 });
  t.is(await consumeAccountToken(x, clock, 'reset_password', token), undefined, 'another purpose');
  t.is((await peekAccountToken(x, clock, 'verify_email', token))?.user_id, 'u1');
  const spent = await consumeAccountToken(x, clock, 'verify_email', token);
  t.like(spent, { user_id: 'u1', purpose: 'verify_email', used_at: clock.now() });
  t.false(spent !== undefined && 'token_hash' in spent, 'the hash stays in the store');
  t.is(await consumeAccountToken(x, clock, 'verify_email', token), undefined);
  t.is(await peekAccountToken(x, clock, 'verify_email', token), undefined);
  const late = await issueAccountToken(x, clock, { purpose: 'verify_email', userId: 'u1', ttlMs: 1000 });
  clock.advance(1000);
  t.is(await peekAccountToken(x, clock, 'verify_email', late), undefined);
  t.is(await consumeAccountToken(x, clock, 'verify_email', late), undefined);
});

dialectTest('a magic link and its fallback code are one credential: spending either spends both', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  for (const first of ['magic_code', 'magic_link'] as const) {
    const link = issueAccountTokenWrites(x, clock, { purpose: 'magic_link', userId: 'u1', ttlMs: 60_000, groupId: `g-${first}` });
    const code = issueAccountTokenWrites(x, clock, { purpose: 'magic_code', userId: 'u1', ttlMs: 60_000, groupId: `g-${first}`, value: `u1:${first}` });
    t.true((await x.batch([...link.writes, ...code.writes])).ok);
    const values = { magic_link: link.value, magic_code: code.value };
    const second = first === 'magic_link' ? 'magic_code' : 'magic_link';
    t.is((await consumeAccountToken(x, clock, first, values[first]))?.purpose, first);
    t.is(await consumeAccountToken(x, clock, second, values[second]), undefined, `${second} after ${first}`);
  }
});

dialectTest('revoking voids the live tokens of one purpose of one user', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const reset = await issueAccountToken(x, clock, { purpose: 'reset_password', userId: 'u1', ttlMs: 60_000 });
  const verify = await issueAccountToken(x, clock, { purpose: 'verify_email', userId: 'u1', ttlMs: 60_000 });
  await revokeAccountTokens(x, clock, 'u1', 'reset_password');
  t.is(await consumeAccountToken(x, clock, 'reset_password', reset), undefined);
  t.truthy(await consumeAccountToken(x, clock, 'verify_email', verify));
});

dialectTest('a TOTP time step is accepted once; a later step passes, an earlier one or another secret does not', async (t, { x }) => {
  await seedUser(x);
  const { totp_secret: sealed } = await totpHolder(x);
  t.true(await spendTotpStep(x, 'u1', sealed!, 100));
  t.false(await spendTotpStep(x, 'u1', sealed!, 100), 'the same step again');
  t.false(await spendTotpStep(x, 'u1', sealed!, 99), 'an earlier step');
  t.false(await spendTotpStep(x, 'u1', 'another sealed secret', 101), 'a secret replaced meanwhile');
  t.true(await spendTotpStep(x, 'u1', sealed!, 101));
});

dialectTest('a TOTP code is accepted once, checked against the secret the user holds', async (t, { x }) => {
  const secret = await seedUser(x);
  const clock = new FakeClock(1_800_000_000_000);
  const deps = { store: x, clock, secretBox };
  const code = totpAt(clock, secret);
  t.false(await consumeTotp(deps, await totpHolder(x), code === '000000' ? '111111' : '000000'), 'a wrong code');
  t.true(await consumeTotp(deps, await totpHolder(x), code));
  t.false(await consumeTotp(deps, await totpHolder(x), code), 'replayed');
  t.false(await consumeTotp(deps, { id: 'u1', totp_secret: (await totpHolder(x)).totp_secret, totp_last_step: null }, code), 'replayed with a stale read of the last step');
});

dialectTest('a recovery code is spent once, whatever its dashes and case', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  await x.run(sql`INSERT INTO mfa_recovery_codes (id, user_id, code_hash, created_at) VALUES ('r1', 'u1', ${await hashShortSecret('abcde23456', 4)}, 0)`);
  t.false(await consumeRecoveryCode({ store: x, clock }, 'u1', 'abcde-99999'));
  t.true(await consumeRecoveryCode({ store: x, clock }, 'u1', 'ABCDE-23456'));
  t.false(await consumeRecoveryCode({ store: x, clock }, 'u1', 'abcde23456'));
});

dialectTest('one recovery code used 20 times at once over two executors is accepted once', async (t, { x, other }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const [code] = await replaceRecoveryCodes({ store: x, clock, bcryptCost: 4 }, 'u1');
  const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => consumeRecoveryCode({ store: i % 2 ? other : x, clock }, 'u1', code!)));
  t.is(outcomes.filter(Boolean).length, 1);
  t.is(await remainingRecoveryCodes(x, 'u1'), 9);
});

dialectTest('enabling MFA promotes the checked pending secret once, together with its recovery codes', async (t, { x }) => {
  await seedUser(x);
  await x.run(x.db.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_pending_secret: 'pending-1' }).where('id', '=', 'u1'));
  const enable = (pending: string, hashes: string[]) => x.batch([promotePendingSecret(x, 'u1', pending, 7, 1000), ...recoveryCodeWrites(x, 'u1', hashes, 1000)], { require: [0] });
  t.deepEqual(await enable('pending-0', ['h0']), { ok: false, failed: 0 }, 'a secret replaced by a newer setup');
  t.is(await remainingRecoveryCodes(x, 'u1'), 0, 'nothing of the refused batch stays');
  t.true((await enable('pending-1', ['h1', 'h2'])).ok);
  t.deepEqual(await x.one(x.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret', 'totp_enabled_at', 'totp_last_step']).where('id', '=', 'u1')), {
    totp_secret: 'pending-1', totp_pending_secret: null, totp_enabled_at: 1000, totp_last_step: 7,
  });
  t.is(await remainingRecoveryCodes(x, 'u1'), 2);
  t.false((await enable('pending-1', ['h3'])).ok, 'a second confirm of the same secret');
  const codes = await replaceRecoveryCodes({ store: x, clock: new FakeClock(), bcryptCost: 4 }, 'u1');
  t.is(await remainingRecoveryCodes(x, 'u1'), codes.length);
  t.true(await consumeRecoveryCode({ store: x, clock: new FakeClock() }, 'u1', codes[0]!));
  t.is(await remainingRecoveryCodes(x, 'u1'), codes.length - 1);
});

dialectTest('a CLI sign-in starts pending, is decided once, and its poll learns the denial', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const deps = cliDeps(x, clock);
  const started = await startCliLogin(deps);
  t.like(await pollCliLogin(deps, started.code), { status: 'pending', interval: started.interval });
  const browserCode = new URL(started.authorize_url).searchParams.get('code')!;
  t.is((await getCliLoginInfo(deps, approver, browserCode)).user_code, started.user_code);
  t.deepEqual(await denyCliLogin(deps, approver, browserCode), { status: 'denied' });
  const again = await t.throwsAsync(denyCliLogin(deps, approver, started.code), { instanceOf: AppError });
  t.is(again?.code, 'CLI_LOGIN_ALREADY_DECIDED');
  t.is((await t.throwsAsync(pollCliLogin(deps, started.code), { instanceOf: AppError }))?.code, 'CLI_LOGIN_DENIED');
  t.is((await t.throwsAsync(getCliLoginInfo(deps, approver, 'unknown'), { instanceOf: AppError }))?.code, 'CLI_LOGIN_NOT_FOUND');
});

dialectTest('an approved CLI sign-in hands its token to one poll, with the user and scopes', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const deps = cliDeps(x, clock);
  const { started, tokenId, value } = await approvedCliLogin(x, clock);
  t.deepEqual(await pollCliLogin(deps, started.code), { status: 'complete', token: value, token_id: tokenId, user_id: 'u1', email: 'a@example.com', org_id: 'o1', scopes: ['api:full'] });
  t.is((await t.throwsAsync(pollCliLogin(deps, started.code), { instanceOf: AppError }))?.code, 'CLI_LOGIN_NOT_FOUND');
});

dialectTest('an expired sign-in: its unclaimed token is revoked at once, the record dropped an hour later', async (t, { x }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const deps = cliDeps(x, clock);
  const { started, tokenId } = await approvedCliLogin(x, clock);
  clock.advance(600_000);
  t.is((await t.throwsAsync(pollCliLogin(deps, started.code), { instanceOf: AppError }))?.code, 'CLI_LOGIN_EXPIRED');
  const token = await x.one(x.db.selectFrom('api_tokens').select('revoked_at').where('id', '=', tokenId));
  t.is(token?.revoked_at, clock.now());
  t.like(await x.one(x.db.selectFrom('cli_logins').select(['token_id', 'token_sealed']).where('status', '=', 'approved')), { token_id: null, token_sealed: null });
  clock.advance(3600_000);
  await expireCliLogins(deps);
  t.is(await x.one(x.db.selectFrom('cli_logins').select('id')), undefined);
});

dialectTest('starting refuses with CLI_LOGIN_BUSY at the ceiling of live sign-ins', async (t, { x }) => {
  const clock = new FakeClock();
  const deps = cliDeps(x, clock, 2);
  await startCliLogin(deps);
  await startCliLogin(deps);
  t.is((await t.throwsAsync(startCliLogin(deps), { instanceOf: AppError }))?.code, 'CLI_LOGIN_BUSY');
  clock.advance(600_000);
  await t.notThrowsAsync(startCliLogin(deps));
});

dialectTest('of 20 concurrent decisions on one sign-in over two executors one wins, the others answer 409', async (t, { x, other }) => {
  await seedUser(x);
  const clock = new FakeClock();
  const started = await startCliLogin(cliDeps(x, clock));
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => denyCliLogin(cliDeps(i % 2 ? other : x, clock), approver, started.code)));
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  t.deepEqual(new Set(outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as AppError).code] : []))), new Set(['CLI_LOGIN_ALREADY_DECIDED']));
});
