// What the invitation page reads of a link (issue 35): who invites, to which organization, with which
// role, the link's state, and what accepting would do with the address's account; never the token's
// use, never more than the mail said; unknown tokens throttled per client address.
import test from 'ava';
import { listOutbox } from '../../src/mail/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

let n = 0;
const info = (token: unknown, ip = '198.51.100.1') => call(t0, 'POST', '/api/auth/invitation/info', { ip }, { token });

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin', email: `ada${++n}@inviting.test` });
  return { orgId, admin, as: { session: t0.session(admin) } };
}

async function invite(as: { session: string }, email = `invitee${++n}@invited.test`, role = 'modeler') {
  const res = await call(t0, 'POST', '/api/admin/invitations', as, { email, role });
  const mail = (await listOutbox(t0.app.services.executor, 500)).find((m) => m.to === email);
  return { email, id: res.body['invitation_id'] as string, token: /Invitation token: (\S+)/.exec(mail?.text ?? '')![1]! };
}

test('a pending link tells who invites, to which organization, with which role, and that a new account will be made', async (t) => {
  const { as, orgId, admin } = team();
  const { email, token } = await invite(as);
  const res = await info(token);
  t.is(res.status, 200);
  t.deepEqual(res.body, {
    state: 'pending', email, org_name: `Org ${orgId}`, role: 'modeler', invited_by: { name: admin.name, email: admin.email },
    expires_at: new Date(t0.clock.now() + 7 * 24 * 3600_000).toISOString(), sso_available: false, account: 'new',
  });
  // Reading it spends nothing: the link still accepts.
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token, method: 'magic_link' })).status, 200);
});

test('the account of the invited address: existing in the base organization, already a member, in another organization, deactivated', async (t) => {
  const { as, orgId } = team();
  const ws = t0.org(undefined, { baseOrgId: orgId });
  const wsAs = { session: t0.session(t0.user({ orgId: ws, role: 'admin' })) };
  const colleague = t0.user({ orgId });
  t.is((await info((await invite(wsAs, colleague.email)).token)).body['account'], 'existing');
  const outsider = t0.user({ orgId: t0.org() });
  t.is((await info((await invite(as, outsider.email)).token)).body['account'], 'in_other_organization');
  const deactivated = t0.user({ orgId });
  const wsInvite = await invite(wsAs, deactivated.email);
  await call(t0, 'POST', `/api/admin/members/${deactivated.id}/deactivate`, as);
  t.is((await info(wsInvite.token)).body['account'], 'deactivated');
  const joiner = t0.user({ orgId });
  const joinerInvite = await invite(wsAs, joiner.email);
  // Joined meanwhile (by another link of the same address): the page says so instead of offering to join.
  t0.app.services.store.sqlite!.prepare('INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, ?, 0, ?)').run(joiner.id, ws, 'user', t0.clock.now());
  t.is((await info(joinerInvite.token)).body['account'], 'member');
});

// Serial, so that its week on the clock passes before the other tests run.
test.serial('used, revoked and expired links say so, with what the mail said and no account status', async (t) => {
  const { as, orgId } = team();
  const used = await invite(as);
  await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: used.token, method: 'magic_link' });
  const usedInfo = await info(used.token);
  t.is(usedInfo.status, 200);
  t.like(usedInfo.body, { state: 'accepted', email: used.email, org_name: `Org ${orgId}` });
  t.false('account' in usedInfo.body);
  const revoked = await invite(as);
  await call(t0, 'DELETE', `/api/admin/invitations/${revoked.id}`, as);
  t.like((await info(revoked.token)).body, { state: 'revoked', email: revoked.email });
  const expired = await invite(as);
  t0.clock.advance(7 * 24 * 3600_000 + 1);
  t.like((await info(expired.token)).body, { state: 'expired', email: expired.email });
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: expired.token, method: 'magic_link' })).body.code, 'INVALID_INVITATION');
});

test('a link replaced by a resend is unknown: 400 INVALID_INVITATION, as before; a malformed body is 422', async (t) => {
  const { as } = team();
  const first = await invite(as);
  await call(t0, 'POST', `/api/admin/invitations/${first.id}/resend`, as);
  const old = await info(first.token);
  t.is(old.status, 400);
  t.is(old.body.code, 'INVALID_INVITATION');
  for (const body of [{}, { token: '' }, { token: 'x'.repeat(201) }, { token: 42 }]) {
    const bad = await call(t0, 'POST', '/api/auth/invitation/info', {}, body);
    t.is(bad.status, 422);
    t.true(Array.isArray(bad.body.detail));
    t.deepEqual((bad.body.detail as { loc: string[] }[])[0]!.loc.slice(0, 2), ['body', 'token']);
  }
});

test('an invitation of one organization reads the same whoever is signed in, and shows nothing of the inviting admin beyond name and address', async (t) => {
  const { as } = team();
  const { token } = await invite(as);
  const stranger = team();
  const signedOut = await info(token);
  const asStranger = await call(t0, 'POST', '/api/auth/invitation/info', stranger.as, { token });
  t.deepEqual(asStranger.body, signedOut.body);
  t.deepEqual(Object.keys(signedOut.body['invited_by'] as object).sort(), ['email', 'name']);
  t.false(JSON.stringify(signedOut.body).includes(token));
});

test('guessing tokens is throttled per client address: 429 after 50 unknown tokens, other addresses unaffected', async (t) => {
  for (let i = 0; i < 50; i++) t.is((await info(`sxt_inv_guess${i}`, '203.0.113.99')).status, 400);
  const limited = await info('sxt_inv_guess-more', '203.0.113.99');
  t.is(limited.status, 429);
  t.is(limited.body.code, 'RATE_LIMITED');
  t.is((await info('sxt_inv_guess-more', '203.0.113.100')).status, 400);
});

test('the OpenAPI document describes the route: no credential, the states, 400, 422 and 429', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string; security?: unknown[]; description?: string; responses: Record<string, unknown> }>> };
  const op = doc.paths['/api/auth/invitation/info']?.['post'];
  t.is(op?.operationId, 'invitation_info');
  t.deepEqual(op?.security ?? [], []);
  t.truthy(op?.responses['422']);
  t.regex(op?.description ?? '', /pending.*accepted.*revoked.*expired/s);
  t.regex(op?.description ?? '', /400 INVALID_INVITATION.*429/s);
  t.regex(JSON.stringify(op?.responses['200']), /in_other_organization/);
});
