// Issue 33 §2: an organization claims an email domain, and the domain does nothing until the
// organization proves it owns it, by a TXT record (a real DNS server on loopback answers) or a link
// mailed to an administrative mailbox at the domain that an admin of the organization opens. Written
// as the stranger who registers an organization of their own and claims someone else's domain.
import test from 'ava';
import { listOutbox } from '../../src/mail/index.ts';
import { setSsoConfig } from '../helpers/auth-config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { call } from '../auth/tokens/requests.ts';

let t0: TestApp;
let dns: TestDnsServer;
test.before(async () => {
  dns = await startDnsServer();
  t0 = await startTestApp({ SEXTANT_DNS_SERVERS: dns.address });
});
test.after.always(async () => {
  await t0.stop();
  await dns.close();
});

const SETTINGS = '/api/admin/organization/settings';
const PASSWORD = 'a long and varied passphrase 42';
let n = 0;

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, as: { session: t0.session(admin) } };
}

const domainOf = (body: Record<string, unknown>, domain: string) => (body['email_domains'] as { domain: string; status: string; txt_record: { name: string; value: string } | null }[]).find((d) => d.domain === domain)!;

/** Claims a domain for the team and publishes its TXT record (not yet verified). */
async function claimAndPublish(as: { session: string }, domain: string) {
  const res = await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  const record = domainOf(res.body, domain).txt_record!;
  dns.txt.set(record.name, [[record.value]]);
  return record;
}

const orgFromEmail = async (email: string) => (await call(t0, 'GET', `/api/auth/org_from_email?email=${encodeURIComponent(email)}`)).body;

async function registeredOrg(email: string): Promise<string | undefined> {
  const reg = await call(t0, 'POST', '/api/auth/register', {}, { email, password: PASSWORD });
  if (reg.status >= 300) throw new Error(`register answered ${reg.status}`);
  const row = t0.app.services.store.sqlite!.prepare('SELECT m.org_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ?').get(email) as { org_id: string } | undefined;
  return row?.org_id;
}

test('a stranger\'s claim of another organization\'s domain routes no sign-in and admits no registration, and the owner still claims and verifies it', async (t) => {
  const domain = `victim${++n}.test`;
  const stranger = team();
  setSsoConfig({ db: t0.app.services.store.sqlite!, clock: t0.clock, secretBox: t0.app.services.secretBox }, { orgId: stranger.orgId, type: 'phish', issuer: 'https://idp.stranger.test', clientId: 'x' });
  const claimed = await call(t0, 'PATCH', SETTINGS, stranger.as, { allowed_email_domains: [domain] });
  t.is(claimed.status, 200);
  t.deepEqual(claimed.body['allowed_email_domains'], [domain]);
  t.like(domainOf(claimed.body, domain), { status: 'pending', verified_at: null, txt_record: { name: `_sextant-verification.${domain}` } });
  // Pending: the sign-in page shows none of the stranger's SSO buttons, and a sign-up starts its own organization.
  t.like(await orgFromEmail(`member@${domain}`), { org_id: null, sso: [] });
  const joined = await registeredOrg(`newcomer@${domain}`);
  t.not(joined, stranger.orgId);
  // The owner claims it too (no 409), publishes its own token and verifies.
  const owner = team();
  const record = await claimAndPublish(owner.as, domain);
  const verified = await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, owner.as);
  t.is(verified.status, 200);
  t.like(verified.body, { domain, status: 'verified', method: 'dns', txt_record: record });
  t.like(await orgFromEmail(`member@${domain}`), { org_id: owner.orgId });
  t.is(await registeredOrg(`second@${domain}`), owner.orgId);
  // The stranger's claim stays, shown as taken; publishing their own token too changes nothing.
  const theirs = domainOf((await call(t0, 'GET', SETTINGS, stranger.as)).body, domain);
  t.like(theirs, { status: 'taken', verified_at: null });
  dns.txt.set(record.name, [[record.value], [theirs.txt_record!.value]]);
  const stolen = await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, stranger.as);
  t.is(stolen.status, 409);
  t.is(stolen.body.code, 'DOMAIN_TAKEN');
  t.like(await orgFromEmail(`member@${domain}`), { org_id: owner.orgId });
});

test('a domain verified by one organization cannot be claimed by another, and the refused change keeps nothing', async (t) => {
  const domain = `owned${++n}.test`;
  const owner = team();
  await claimAndPublish(owner.as, domain);
  t.is((await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, owner.as)).status, 200);
  const other = team();
  const res = await call(t0, 'PATCH', SETTINGS, other.as, { mfa_required: true, allowed_email_domains: ['fine.test', domain.toUpperCase()] });
  t.is(res.status, 409);
  t.is(res.body.code, 'DOMAIN_TAKEN');
  t.deepEqual(res.body['data'], { domain });
  t.like((await call(t0, 'GET', SETTINGS, other.as)).body, { mfa_required: false, allowed_email_domains: [], email_domains: [] });
});

test('public mail domains are refused with a 422 naming their place, whoever asks', async (t) => {
  const { as } = team();
  for (const list of [['gmail.com'], ['corp.test', 'Outlook.com'], ['hotmail.com'], ['yahoo.co.jp'], ['mail.gmail.com'], ['proton.me']]) {
    const res = await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: list });
    t.is(res.status, 422, list.join());
    const issue = (res.body.detail as { loc: (string | number)[]; type: string }[])[0]!;
    t.deepEqual(issue.loc, ['body', 'allowed_email_domains', list.length - 1]);
    t.is(issue.type, 'value_error.public_mail_domain');
  }
  t.deepEqual((await call(t0, 'GET', SETTINGS, as)).body['allowed_email_domains'], []);
  t.like(await orgFromEmail('someone@gmail.com'), { org_id: null });
});

test('a failed DNS proof names why with a stable code and changes nothing; the right record verifies once, and again is a no-op', async (t) => {
  const domain = `dns${++n}.test`;
  const { as, orgId } = team();
  const settings = await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  const record = domainOf(settings.body, domain).txt_record!;
  const verify = () => call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, as);
  const missing = await verify();
  t.is(missing.status, 409);
  t.like(missing.body, { code: 'DOMAIN_NOT_VERIFIED', data: { domain, reason: 'no_record', txt_record: record } });
  dns.txt.set(record.name, [['sxt-verify-0000'], ['v=spf1 -all']]);
  t.like((await verify()).body, { code: 'DOMAIN_NOT_VERIFIED', data: { reason: 'wrong_value' } });
  dns.failing.add(record.name);
  const failing = await verify();
  t.is(failing.status, 409);
  t.like(failing.body, { code: 'DOMAIN_NOT_VERIFIED', data: { reason: 'dns_failed' } });
  dns.failing.delete(record.name);
  t.like(await orgFromEmail(`a@${domain}`), { org_id: null });
  // The token may come split into several strings of one record.
  dns.txt.set(record.name, [[record.value.slice(0, 10), record.value.slice(10)]]);
  const ok = await verify();
  t.is(ok.status, 200);
  t.is(ok.body['status'], 'verified');
  t.like(await verify(), { status: 200, body: { status: 'verified', verified_at: ok.body['verified_at'] } });
  t.like(await orgFromEmail(`a@${domain}`), { org_id: orgId });
  const audit = t0.app.services.store.sqlite!.prepare("SELECT outcome FROM audit_log WHERE org_id = ? AND action = 'email_domain_verified' ORDER BY rowid").pluck().all(orgId);
  t.deepEqual(audit, ['failure', 'failure', 'failure', 'success']);
});

test('removing a verified domain from the settings stops its routing at once', async (t) => {
  const domain = `gone${++n}.test`;
  const { as, orgId } = team();
  await claimAndPublish(as, domain);
  await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, as);
  t.like(await orgFromEmail(`a@${domain}`), { org_id: orgId });
  t.is((await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [] })).status, 200);
  t.like(await orgFromEmail(`a@${domain}`), { org_id: null });
  // Claimed again, it is pending with a new token until proven again.
  const again = await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  t.is(domainOf(again.body, domain).status, 'pending');
});

test('the verification routes answer 401 without a credential, 403 to non-admins, 404 for a domain the organization has not claimed, and 422 for malformed input', async (t) => {
  const domain = `routes${++n}.test`;
  const a = team();
  await call(t0, 'PATCH', SETTINGS, a.as, { allowed_email_domains: [domain] });
  const member = { session: t0.session(t0.user({ orgId: a.orgId, role: 'modeler' })) };
  const routes: [string, string, unknown][] = [
    ['GET', '/api/admin/email_domains', undefined],
    ['POST', `/api/admin/email_domains/${domain}/verify`, undefined],
    ['POST', `/api/admin/email_domains/${domain}/verify_by_email`, { mailbox: 'postmaster' }],
    ['POST', '/api/admin/email_domains/verify_by_email/confirm', { token: 'sxt_dom_x' }],
  ];
  for (const [method, path, body] of routes) {
    t.is((await call(t0, method, path, {}, body)).status, 401, path);
    t.is((await call(t0, method, path, member, body)).status, 403, path);
  }
  // Another organization's admin: the domain is not theirs, whatever its state.
  const b = team();
  for (const path of [`/api/admin/email_domains/${domain}/verify`, `/api/admin/email_domains/${domain}/verify_by_email`]) {
    const res = await call(t0, 'POST', path, b.as, { mailbox: 'postmaster' });
    t.is(res.status, 404, path);
    t.is(res.body.code, 'DOMAIN_NOT_CLAIMED');
  }
  t.deepEqual((await call(t0, 'GET', '/api/admin/email_domains', b.as)).body, { email_domains: [] });
  const bad: [string, unknown, string][] = [
    ['/api/admin/email_domains/not_a_domain/verify', undefined, 'domain'],
    [`/api/admin/email_domains/${'a'.repeat(300)}.test/verify`, undefined, 'domain'],
    [`/api/admin/email_domains/${domain}/verify_by_email`, { mailbox: 'ceo' }, 'mailbox'],
    [`/api/admin/email_domains/${domain}/verify_by_email`, {}, 'mailbox'],
    ['/api/admin/email_domains/verify_by_email/confirm', { token: '' }, 'token'],
    ['/api/admin/email_domains/verify_by_email/confirm', { token: 7 }, 'token'],
  ];
  for (const [path, body, field] of bad) {
    const res = await call(t0, 'POST', path, a.as, body);
    t.is(res.status, 422, path);
    t.is((res.body.detail as { loc: string[] }[])[0]!.loc[1], field);
  }
  t.like((await call(t0, 'GET', '/api/admin/email_domains', a.as)).body, { email_domains: [{ domain, status: 'pending' }] });
});

/** The token of the newest domain link mailed to `to`. */
async function mailedLink(to: string): Promise<string> {
  const mail = (await listOutbox(t0.app.services.executor, 500)).filter((m) => m.to === to).at(-1);
  return /Verification token: (\S+)/.exec(mail?.text ?? '')![1]!;
}

test('a link mailed to an administrative mailbox at the domain verifies it once, opened by an admin of the organization that asked', async (t) => {
  const domain = `mail${++n}.test`;
  const a = team();
  await call(t0, 'PATCH', SETTINGS, a.as, { allowed_email_domains: [domain] });
  const sent = await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify_by_email`, a.as, { mailbox: 'postmaster' });
  t.is(sent.status, 202);
  t.is(sent.body['sent_to'], `postmaster@${domain}`);
  const token = await mailedLink(`postmaster@${domain}`);
  t.falsy(t0.app.services.store.sqlite!.prepare('SELECT 1 FROM org_email_domain_links WHERE token_hash = ?').get(token), 'only a hash is kept');
  const confirm = (as: { session: string }, tok = token) => call(t0, 'POST', '/api/admin/email_domains/verify_by_email/confirm', as, { token: tok });
  // Another organization's admin, even one that claims the same domain, cannot spend it.
  const b = team();
  await call(t0, 'PATCH', SETTINGS, b.as, { allowed_email_domains: [domain] });
  const foreign = await confirm(b.as);
  t.is(foreign.status, 400);
  t.is(foreign.body.code, 'INVALID_DOMAIN_LINK');
  t.is((await confirm(a.as, 'sxt_dom_forged')).body.code, 'INVALID_DOMAIN_LINK');
  t.like(await orgFromEmail(`x@${domain}`), { org_id: null });
  // Twenty opens at once: one verifies, the rest find the link spent.
  const opens = await Promise.all(Array.from({ length: 20 }, () => confirm(a.as)));
  t.is(opens.filter((r) => r.status === 200).length, 1);
  t.true(opens.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.body.code === 'INVALID_DOMAIN_LINK'));
  t.like(opens.find((r) => r.status === 200)!.body, { domain, status: 'verified', method: 'email' });
  t.like(await orgFromEmail(`x@${domain}`), { org_id: a.orgId });
  t.is(domainOf((await call(t0, 'GET', SETTINGS, b.as)).body, domain).status, 'taken');
  // Now verified by a, b may no longer ask for a link.
  t.is((await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify_by_email`, b.as, { mailbox: 'postmaster' })).body.code, 'DOMAIN_TAKEN');
});

test.serial('a mailed link expires after a day and dies with its claim', async (t) => {
  const domain = `late${++n}.test`;
  const { as } = team();
  await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify_by_email`, as, { mailbox: 'hostmaster' });
  const late = await mailedLink(`hostmaster@${domain}`);
  await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify_by_email`, as, { mailbox: 'webmaster' });
  const dropped = await mailedLink(`webmaster@${domain}`);
  await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: ['other-claim.test'] });
  const res = await call(t0, 'POST', '/api/admin/email_domains/verify_by_email/confirm', as, { token: dropped });
  t.is(res.status, 404);
  t.is(res.body.code, 'DOMAIN_NOT_CLAIMED');
  await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  t0.clock.advance(24 * 3600_000 + 1);
  t.is((await call(t0, 'POST', '/api/admin/email_domains/verify_by_email/confirm', as, { token: late })).body.code, 'INVALID_DOMAIN_LINK');
  t.like(await orgFromEmail(`x@${domain}`), { org_id: null });
});

test.serial('mailing verification links is flood-limited per address like every account mail (429)', async (t) => {
  const domain = `flood${++n}.test`;
  const { as } = team();
  await call(t0, 'PATCH', SETTINGS, as, { allowed_email_domains: [domain] });
  const statuses: number[] = [];
  for (let i = 0; i < t0.config.mail.perAddressPerHour + 1; i++) {
    statuses.push((await call(t0, 'POST', `/api/admin/email_domains/${domain}/verify_by_email`, as, { mailbox: 'admin' })).status);
  }
  t.deepEqual(statuses, [...Array<number>(t0.config.mail.perAddressPerHour).fill(202), 429]);
  const mails = (await listOutbox(t0.app.services.executor, 500)).filter((m) => m.to === `admin@${domain}`);
  t.is(mails.length, t0.config.mail.perAddressPerHour);
});
