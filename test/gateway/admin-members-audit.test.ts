// Audit entries of running an organization (issue 23): every member and invitation action carries
// actor, target, client address and outcome; refused attempts are failures; no organization reads another's.
import test from 'ava';
import { listOutbox } from '../../src/mail/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

type Entry = { action: string; outcome: string; actor_id: string | null; user_id: string | null; target_type: string | null; target_id: string | null; ip: string | null; data: Record<string, unknown> };
let n = 0;

function team(ip: string) {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = t0.user({ orgId });
  return { orgId, admin, member, as: { session: t0.session(admin), ip } };
}

/** The organization's audit log as its admin reads it, oldest first. */
async function auditOf(as: { session: string }, query = ''): Promise<Entry[]> {
  const res = await call(t0, 'GET', `/api/admin/audit?limit=500${query}`, as);
  return (res.body['entries'] as Entry[]).reverse();
}

async function mailedToken(to: string): Promise<string> {
  const mail = (await listOutbox(t0.app.services.executor, 500)).find((m) => m.to === to);
  return /Invitation token: (\S+)/.exec(mail?.text ?? '')![1]!;
}

async function invite(as: { session: string; ip: string }) {
  const email = `audited${++n}@invited.test`;
  const res = await call(t0, 'POST', '/api/admin/invitations', as, { email, role: 'user' });
  return { email, id: res.body['invitation_id'] as string, token: await mailedToken(email) };
}

test('every member action is audited with the acting admin, the member as target, the client address and success', async (t) => {
  const { as, admin, member } = team('203.0.113.7');
  await call(t0, 'PUT', `/api/admin/members/${member.id}/role`, as, { role: 'modeler' });
  await call(t0, 'PUT', `/api/admin/members/${member.id}/attributes`, as, { attributes: { region: 'EU' } });
  await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, as);
  await call(t0, 'POST', `/api/admin/members/${member.id}/reactivate`, as);
  await call(t0, 'POST', `/api/admin/members/${member.id}/unlock`, as);
  t.is((await call(t0, 'DELETE', `/api/admin/members/${member.id}`, as)).status, 204);
  const entries = (await auditOf(as)).filter((e) => e.action.startsWith('member_'));
  t.deepEqual(entries.map((e) => e.action), ['member_role_changed', 'member_attributes_changed', 'member_deactivated', 'member_reactivated', 'member_unlocked', 'member_removed']);
  for (const e of entries) t.like(e, { actor_id: admin.id, target_type: 'user', target_id: member.id, ip: '203.0.113.7', outcome: 'success' });
});

test('invitations and settings are audited with the invitation or the organization as target and the client address', async (t) => {
  const { as, admin, orgId } = team('198.51.100.20');
  const first = await invite(as);
  await call(t0, 'POST', `/api/admin/invitations/${first.id}/resend`, as);
  t.is((await call(t0, 'DELETE', `/api/admin/invitations/${first.id}`, as)).status, 204);
  const second = await invite(as);
  const accepted = await call(t0, 'POST', '/api/auth/invitation/accept', { ip: '192.0.2.55' }, { token: second.token, method: 'magic_link' });
  t.is(accepted.status, 200);
  t.is((await call(t0, 'PATCH', '/api/admin/organization/settings', as, { session_lifetime_seconds: 3600 })).status, 200);
  const entries = (await auditOf(as)).filter((e) => e.action.startsWith('invitation_') || e.action === 'org_settings_changed');
  t.deepEqual(entries.map((e) => [e.action, e.target_type, e.target_id, e.ip, e.outcome]), [
    ['invitation_created', 'invitation', first.id, '198.51.100.20', 'success'],
    ['invitation_resent', 'invitation', first.id, '198.51.100.20', 'success'],
    ['invitation_revoked', 'invitation', first.id, '198.51.100.20', 'success'],
    ['invitation_created', 'invitation', second.id, '198.51.100.20', 'success'],
    ['invitation_accepted', 'invitation', second.id, '192.0.2.55', 'success'],
    ['org_settings_changed', 'organization', orgId, '198.51.100.20', 'success'],
  ]);
  t.true(entries.filter((e) => e.action !== 'invitation_accepted').every((e) => e.actor_id === admin.id));
});

test('a refused last-admin demotion, deactivation and removal answer 409 as before and each leave a failure entry', async (t) => {
  const { as, admin } = team('203.0.113.9');
  const answers = [
    await call(t0, 'PUT', `/api/admin/members/${admin.id}/role`, as, { role: 'user' }),
    await call(t0, 'POST', `/api/admin/members/${admin.id}/deactivate`, as),
    await call(t0, 'DELETE', `/api/admin/members/${admin.id}`, as),
  ];
  t.deepEqual(answers.map((r) => [r.status, r.body.code]), [[409, 'LAST_ADMIN'], [409, 'LAST_ADMIN'], [409, 'LAST_ADMIN']]);
  const failures = await auditOf(as, '&outcome=failure');
  t.deepEqual(failures.map((e) => e.action), ['member_role_changed', 'member_deactivated', 'member_removed']);
  for (const e of failures) t.like(e, { actor_id: admin.id, target_type: 'user', target_id: admin.id, ip: '203.0.113.9', data: { error: 'LAST_ADMIN' } });
  t.like(failures[0]!.data, { to: 'user' });
  // Nothing changed, so nothing was audited as done.
  t.deepEqual((await auditOf(as, '&outcome=success')).filter((e) => e.action.startsWith('member_')), []);
});

test('refused invitations are failures: an address already a member, and a link used, revoked or forged', async (t) => {
  const { as, member } = team('203.0.113.10');
  t.is((await call(t0, 'POST', '/api/admin/invitations', as, { email: member.email, role: 'user' })).body.code, 'ALREADY_MEMBER');
  const used = await invite(as);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/invitation/accept', { ip: '192.0.2.77' }, { token: used.token, method: 'magic_link' })));
  t.is(results.filter((r) => r.status === 200).length, 1);
  const revoked = await invite(as);
  await call(t0, 'DELETE', `/api/admin/invitations/${revoked.id}`, as);
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', { ip: '192.0.2.78' }, { token: revoked.token, method: 'magic_link' })).status, 400);
  const entries = await auditOf(as);
  t.like(entries.find((e) => e.action === 'invitation_created' && e.outcome === 'failure'), { ip: '203.0.113.10', data: { email: member.email, error: 'ALREADY_MEMBER' } });
  const accepts = entries.filter((e) => e.action === 'invitation_accepted');
  t.is(accepts.filter((e) => e.outcome === 'success').length, 1);
  const usedFailures = accepts.filter((e) => e.outcome === 'failure' && e.target_id === used.id);
  t.is(usedFailures.length, 19);
  t.true(usedFailures.every((e) => e.ip === '192.0.2.77' && e.target_type === 'invitation' && e.data['error'] === 'INVALID_INVITATION'));
  t.like(accepts.find((e) => e.target_id === revoked.id), { outcome: 'failure', ip: '192.0.2.78', data: { error: 'INVALID_INVITATION' } });
  // A forged link names no organization: its failure is kept, but in no organization's log.
  const before = t0.app.services.store.sqlite!.prepare("SELECT count(*) FROM audit_log WHERE org_id IS NULL AND action = 'invitation_accepted' AND outcome = 'failure'").pluck().get() as number;
  t.is((await call(t0, 'POST', '/api/auth/invitation/accept', {}, { token: 'sxt_inv_forged', method: 'magic_link' })).status, 400);
  t.is(t0.app.services.store.sqlite!.prepare("SELECT count(*) FROM audit_log WHERE org_id IS NULL AND action = 'invitation_accepted' AND outcome = 'failure'").pluck().get(), before + 1);
});

test("another organization's admin reads none of these entries, by list, by target or by export", async (t) => {
  const a = team('203.0.113.11');
  const b = team('203.0.113.12');
  await call(t0, 'PUT', `/api/admin/members/${a.member.id}/role`, a.as, { role: 'modeler' });
  await call(t0, 'PUT', `/api/admin/members/${a.admin.id}/role`, a.as, { role: 'user' });
  const inv = await invite(a.as);
  const seenByB = await auditOf(b.as);
  t.false(JSON.stringify(seenByB).includes(a.orgId));
  t.false(seenByB.some((e) => [a.admin.id, a.member.id, inv.id].includes(e.target_id ?? '') || e.ip === '203.0.113.11'));
  for (const id of [a.member.id, a.admin.id, inv.id]) t.deepEqual(await auditOf(b.as, `&target_id=${id}`), []);
  const exported = await t0.fetch('/api/admin/audit/export', { headers: { cookie: `sextant_session=${b.as.session}` } });
  const text = await exported.text();
  t.is(exported.status, 200);
  t.false(text.includes(a.member.id) || text.includes(inv.id) || text.includes('203.0.113.11'));
});
