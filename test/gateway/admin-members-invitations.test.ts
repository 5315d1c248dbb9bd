// Invitations (issue 23): invite by mail with a role, list, resend (old link dies), revoke, accept
// with a password, a sign-in link or SSO; single use under 20 parallel accepts; other organizations.
import test from 'ava';
import { setSsoConfig } from '../helpers/auth-config.ts';
import { listOutbox } from '../../src/mail/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  // A configured cost below the default: new passwords must be hashed at it, as registration's are.
  t0 = await startTestApp({ SEXTANT_BCRYPT_COST: '5' });
});
test.after.always(() => t0.stop());

const PASSWORD = 'a long and varied passphrase 42';
let n = 0;

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, as: { session: t0.session(admin) } };
}

/** The token of the newest invitation mailed to `to`. */
async function mailedToken(to: string): Promise<string> {
  const mail = (await listOutbox(t0.app.services.executor, 500)).find((m) => m.to === to);
  return /Invitation token: (\S+)/.exec(mail?.text ?? '')![1]!;
}

async function invite(as: { session: string }, role = 'user') {
  const email = `invitee${++n}@invited.test`;
  const res = await call(t0, 'POST', '/api/admin/invitations', as, { email, role });
  return { email, res, token: await mailedToken(email) };
}

test('an invited person accepts with a password and is signed in to the organization with the role', async (t) => {
  const { as, orgId } = team();
  const { email, res, token } = await invite(as, 'modeler');
  t.is(res.status, 201);
  t.like(res.body, { email, role: 'modeler' });
  t.false(JSON.stringify(res.body).includes(token));
  // Only a hash of the token is stored.
  t.falsy(t0.app.services.store.sqlite!.prepare('SELECT 1 FROM invitations WHERE token_hash = ?').get(token));
  // The accept page reads what the link is for without spending it.
  const info = await call(t0, 'POST', '/api/auth/invitation/info', {}, { token });
  t.like(info.body, { email, org_name: `Org ${orgId}`, role: 'modeler', sso_available: false });
  t.is((await call(t0, 'POST', '/api/auth/invitation/info', {}, { token: 'sxt_inv_forged' })).body.code, 'INVALID_INVITATION');
  const accepted = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'password', password: PASSWORD, name: 'Ada' });
  t.is(accepted.status, 200);
  t.is(accepted.body['org_id'], orgId);
  const me = await call(t0, 'GET', '/api/auth/me', { bearer: accepted.body['access_token'] as string });
  t.like(me.body, { email, org_id: orgId, role: 'modeler', email_verified: true, has_password: true, name: 'Ada' });
  t.is((await call(t0, 'POST', '/api/auth/token', {}, { email, password: PASSWORD })).status, 200);
  t.deepEqual((await call(t0, 'GET', '/api/admin/invitations', as)).body['invitations'], []);
  const stored = t0.app.services.store.sqlite!.prepare('SELECT password_hash FROM users WHERE email = ?').get(email) as { password_hash: string };
  t.regex(stored.password_hash, /^\$2[ab]\$05\$/, 'hashed at the configured cost');
});

test('an invitation accepted with a sign-in link makes a passwordless account', async (t) => {
  const { as } = team();
  const { email, token } = await invite(as);
  const accepted = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' });
  t.is(accepted.status, 200);
  const me = await call(t0, 'GET', '/api/auth/me', { bearer: accepted.body['access_token'] as string });
  t.like(me.body, { email, has_password: false });
});

test('with SSO set up, accepting for SSO creates the member and points to the provider; without it, 409', async (t) => {
  const { as, orgId } = team();
  const first = await invite(as);
  const none = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: first.token, method: 'sso' });
  t.is(none.status, 409);
  t.is(none.body.code, 'SSO_NOT_CONFIGURED');
  const db = t0.app.services.store.sqlite!;
  const { secretBox } = t0.app.services;
  setSsoConfig({ db, clock: t0.clock, secretBox }, { orgId, type: 'oidc', issuer: 'https://idp.invalid', clientId: 'c', clientSecret: 'secret-secret-secret' });
  const res = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: first.token, method: 'sso' });
  t.is(res.status, 200);
  t.is(res.body['sso_login_url'], `${t0.config.baseUrl}/api/auth/${orgId}/oidc/login`);
  t.is(res.body['access_token'], undefined);
});

test('twenty parallel accepts of one invitation: exactly one wins', async (t) => {
  const { as } = team();
  const { email, token } = await invite(as);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' })));
  t.is(results.filter((r) => r.status === 200).length, 1);
  t.true(results.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.body.code === 'INVALID_INVITATION'));
  t.is(t0.app.services.store.sqlite!.prepare('SELECT COUNT(*) FROM users WHERE email = ?').pluck().get(email), 1);
});

test('a resent invitation gets a new link and the old one dies; a revoked one dies too', async (t) => {
  const { as } = team();
  const { email, res, token: old } = await invite(as);
  const id = res.body['invitation_id'] as string;
  t0.clock.advance(1000);
  const resent = await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, as);
  t.is(resent.status, 200);
  const fresh = await mailedToken(email);
  t.not(fresh, old);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: old, method: 'magic_link' })).body.code, 'INVALID_INVITATION');
  t.is((await call(t0, 'DELETE', `/api/admin/invitations/${id}`, as)).status, 204);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: fresh, method: 'magic_link' })).body.code, 'INVALID_INVITATION');
  t.is((await call(t0, 'DELETE', `/api/admin/invitations/${id}`, as)).status, 404);
});

test.serial('an invitation expires after seven days', async (t) => {
  const { as } = team();
  const { token } = await invite(as);
  t0.clock.advance(7 * 24 * 3600_000 + 1);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' })).status, 400);
});

test('inviting a member or an address already invited is a conflict; an account of another organization is told only on accepting', async (t) => {
  const { as, orgId } = team();
  const member = t0.user({ orgId });
  t.is((await call(t0, 'POST', '/api/admin/invitations', as, { email: member.email })).body.code, 'ALREADY_MEMBER');
  const { email } = await invite(as);
  t.is((await call(t0, 'POST', '/api/admin/invitations', as, { email })).body.code, 'INVITATION_PENDING');
  const outsider = t0.user({ orgId: t0.org() });
  const res = await call(t0, 'POST', '/api/admin/invitations', as, { email: outsider.email });
  // The inviter sees what any invitation gets: no hint that the address has an account elsewhere.
  t.is(res.status, 201);
  const accept = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: await mailedToken(outsider.email), method: 'magic_link' });
  t.is(accept.status, 409);
  t.is(accept.body.code, 'ACCOUNT_IN_OTHER_ORGANIZATION');
  const pending = (await call(t0, 'GET', '/api/admin/invitations', as)).body['invitations'] as { email: string }[];
  t.true(pending.some((i) => i.email === outsider.email));
});

test('invitation routes: 401, 403 for non-admins, 404 for another organization, 422 on bad bodies', async (t) => {
  const { as, orgId } = team();
  const { res } = await invite(as);
  const id = res.body['invitation_id'] as string;
  const user = { session: t0.session(t0.user({ orgId, role: 'modeler' })) };
  const other = team().as;
  for (const [method, path, body] of [
    ['POST', '/api/admin/invitations', { email: 'x@y.test' }],
    ['GET', '/api/admin/invitations'],
    ['POST', `/api/admin/invitations/${id}/resend`],
    ['DELETE', `/api/admin/invitations/${id}`],
  ] as [string, string, unknown?][]) {
    t.is((await call(t0, method, path, {}, body)).status, 401, path);
    t.is((await call(t0, method, path, user, body)).status, 403, path);
  }
  t.is((await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, other)).body.code, 'INVITATION_NOT_FOUND');
  t.is((await call(t0, 'DELETE', `/api/admin/invitations/${id}`, other)).status, 404);
  t.deepEqual((await call(t0, 'GET', '/api/admin/invitations', other)).body['invitations'], []);
  for (const body of [{ email: 'not-an-address' }, { email: 'a@b.test', role: 'owner' }, {}]) {
    const bad = await call(t0, 'POST', '/api/admin/invitations', as, body);
    t.is(bad.status, 422);
    t.true(Array.isArray(bad.body.detail));
  }
  const weak = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: (await invite(as)).token, method: 'password', password: 'short' });
  t.is(weak.status, 422);
  t.deepEqual((weak.body.detail as { loc: string[] }[])[0]!.loc, ['body', 'password']);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { method: 'password' })).status, 422);
});

test('invitations are audited: created, resent, revoked, accepted', async (t) => {
  const { as, orgId } = team();
  const a = await invite(as);
  await call(t0, 'POST', `/api/admin/invitations/${a.res.body['invitation_id'] as string}/resend`, as);
  await call(t0, 'DELETE', `/api/admin/invitations/${a.res.body['invitation_id'] as string}`, as);
  const b = await invite(as);
  await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: b.token, method: 'magic_link' });
  const actions = t0.app.services.store.sqlite!.prepare("SELECT action FROM audit_log WHERE org_id = ? AND action LIKE 'invitation_%' ORDER BY created_at, rowid").pluck().all(orgId);
  t.deepEqual(actions, ['invitation_created', 'invitation_resent', 'invitation_revoked', 'invitation_created', 'invitation_accepted']);
});

test('an admin invites a whole team from one address, but one mailbox gets at most five invitation mails an hour', async (t) => {
  const { as } = team();
  for (let i = 0; i < 40; i++) t.is((await call(t0, 'POST', '/api/admin/invitations', as, { email: `team${i}@bulk.test` })).status, 201);
  const { res } = await invite(as);
  const id = res.body['invitation_id'] as string;
  for (let i = 0; i < 4; i++) t.is((await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, as)).status, 200);
  const flooded = await call(t0, 'POST', `/api/admin/invitations/${id}/resend`, as);
  t.is(flooded.status, 429);
  t.is(flooded.body.code, 'RATE_LIMITED');
});

test('a workspace invitation takes in a member of its base organization, who is signed in to the workspace', async (t) => {
  const { orgId } = team();
  const ws = t0.org(undefined, { baseOrgId: orgId });
  const wsAs = { session: t0.session(t0.user({ orgId: ws, role: 'admin' })) };
  const colleague = t0.user({ orgId });
  const res = await call(t0, 'POST', '/api/admin/invitations', wsAs, { email: colleague.email, role: 'modeler' });
  t.is(res.status, 201);
  const accepted = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: await mailedToken(colleague.email), method: 'magic_link' });
  t.is(accepted.status, 200);
  t.like((await call(t0, 'GET', '/api/auth/me', { bearer: accepted.body['access_token'] as string })).body, { user_id: colleague.id, org_id: ws, role: 'modeler' });
});

test('an invitation does not revive a deactivated account', async (t) => {
  const { orgId, as } = team();
  const ws = t0.org(undefined, { baseOrgId: orgId });
  const wsAs = { session: t0.session(t0.user({ orgId: ws, role: 'admin' })) };
  const colleague = t0.user({ orgId });
  await call(t0, 'POST', `/api/admin/members/${colleague.id}/deactivate`, as);
  await call(t0, 'POST', '/api/admin/invitations', wsAs, { email: colleague.email });
  const token = await mailedToken(colleague.email);
  const refused = await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'ACCOUNT_DEACTIVATED');
  // The refusal did not spend the link: it works once the account is reactivated.
  await call(t0, 'POST', `/api/admin/members/${colleague.id}/reactivate`, as);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' })).status, 200);
});
