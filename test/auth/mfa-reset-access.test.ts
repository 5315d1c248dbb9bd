// Issue 33 §8: an admin's MFA reset and a self-service MFA recovery clear the user's access tokens
// (interface part 3: "token_version bumped, access tokens cleared, live sessions invalidated"): every
// session, API, CLI and MCP token and OAuth grant is refused on the very next request, and the answer
// and the audit entry say so. Nobody else's credentials are touched, in the organization or outside.
import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, PASSWORD, passwordUser, signIn, startAuthApp } from '../helpers/auth.ts';
import { ALL_KINDS, everyCredential, workingCredentials } from '../helpers/every-credential.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

let t0: TestApp;
let smtp: TestSmtp;
test.before(async () => {
  smtp = await startTestSmtp();
  t0 = await startAuthApp({ SEXTANT_SMTP_URL: smtp.url });
});
test.after.always(async () => {
  await t0.stop();
  await smtp.stop();
});

const auditData = (action: string, userId: string) =>
  JSON.parse(t0.app.services.store.sqlite!.prepare('SELECT data FROM audit_log WHERE action = ? AND user_id = ? ORDER BY id DESC').pluck().get(action, userId) as string) as Record<string, unknown>;

test.serial("an admin's MFA reset refuses every credential of the member on the very next request, and says so", async (t) => {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = await passwordUser(t0, { orgId });
  const colleague = t0.user({ orgId });
  await enrollMfa(t0, t0.session(member));
  const held = await everyCredential(t0, member);
  const theirs = await everyCredential(t0, colleague);
  const adminsOwn = await everyCredential(t0, admin);
  t.deepEqual(await workingCredentials(t0, held), ALL_KINDS);
  const res = await call(t0, 'POST', `/api/auth/admin/users/${member.id}/mfa/reset`, undefined, t0.session(admin));
  t.is(res.status, 200);
  t.deepEqual(res.body, { status: 'reset', sessions_ended: true, access_tokens_cleared: true, tokens_revoked: 3, oauth_grants_revoked: 1 });
  t.deepEqual(await workingCredentials(t0, held), []);
  t.deepEqual(await workingCredentials(t0, theirs), ALL_KINDS);
  t.deepEqual(await workingCredentials(t0, adminsOwn), ALL_KINDS);
  t.like(auditData('mfa_admin_reset', member.id), { sessions_ended: true, access_tokens_cleared: true });
  // The member signs in anew, without MFA, and works again with fresh credentials.
  const again = await signIn(t0, member.email, PASSWORD);
  t.is(again.status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, again.body['access_token'] as string)).status, 200);
});

test.serial("a reset refused (another organization's admin, a non-admin, a bad id, no credential) clears nothing", async (t) => {
  const orgId = t0.org();
  const member = await passwordUser(t0, { orgId });
  const strangerAdmin = t0.user({ orgId: t0.org(), role: 'admin' });
  const modeler = t0.user({ orgId, role: 'modeler' });
  const held = await everyCredential(t0, member);
  const path = `/api/auth/admin/users/${member.id}/mfa/reset`;
  t.is((await call(t0, 'POST', path, undefined, t0.session(strangerAdmin))).status, 404);
  t.is((await call(t0, 'POST', path, undefined, t0.session(modeler))).status, 403);
  t.is((await call(t0, 'POST', path, undefined, t0.session(member))).status, 403);
  t.is((await call(t0, 'POST', path)).status, 401);
  const invalid = await call(t0, 'POST', `/api/auth/admin/users/${'x'.repeat(101)}/mfa/reset`, undefined, t0.session(strangerAdmin));
  t.is(invalid.status, 422);
  t.deepEqual((invalid.body.detail as { loc: string[] }[])[0]?.loc, ['path', 'user_id']);
  t.deepEqual(await workingCredentials(t0, held), ALL_KINDS);
});

test.serial('a self-service MFA recovery refuses every credential on the very next request, and says so', async (t) => {
  const orgId = t0.org();
  const member = await passwordUser(t0, { orgId });
  const colleague = t0.user({ orgId });
  await enrollMfa(t0, t0.session(member));
  const held = await everyCredential(t0, member);
  const theirs = await everyCredential(t0, colleague);
  const pending = await signIn(t0, member.email, PASSWORD);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: pending.body['mfa_token'], password: PASSWORD })).status, 202);
  const token = /Recovery token: (\S+)/.exec((await smtp.next(member.email, /Recover access/)).text)![1]!;
  t.deepEqual(await workingCredentials(t0, held), ALL_KINDS);
  const res = await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token });
  t.is(res.status, 200);
  t.like(res.body, { status: 'mfa_removed', sessions_ended: true, access_tokens_cleared: true, tokens_revoked: 3, oauth_grants_revoked: 1 });
  t.deepEqual(await workingCredentials(t0, held), []);
  t.deepEqual(await workingCredentials(t0, theirs), ALL_KINDS);
  t.like(auditData('mfa_recovery_completed', member.id), { sessions_ended: true, access_tokens_cleared: true });
  const replay = await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token });
  t.is(replay.status, 400);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token: '' })).status, 422);
});
