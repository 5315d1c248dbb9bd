// Issue 33, section 4: the client's address is the one our own proxies saw, on every path that reads it
// (sign-in throttle, mail throttle, OAuth registration quota, audit), never the leftmost
// X-Forwarded-For entry the client writes itself; only valid addresses are stored; and the Secure
// cookie flag and HSTS follow a trusted proxy's X-Forwarded-Proto.
import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { parseAddress, proxyTrust } from '../../src/security/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { PASSWORD, passwordUser, startAuthApp } from '../helpers/auth.ts';

const post = (app: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const lastAuditIp = (app: TestApp, action: string) =>
  (app.app.services.store.sqlite!.prepare('SELECT ip FROM audit_log WHERE action = ? ORDER BY rowid DESC LIMIT 1').get(action) as { ip: string | null } | undefined)?.ip;

test('one trusted hop: the client is the rightmost X-Forwarded-For entry, whatever the client wrote to its left', (t) => {
  const trust = proxyTrust({ hops: 1 });
  t.is(trust.clientAddress('127.0.0.1', '203.0.113.7'), '203.0.113.7');
  t.is(trust.clientAddress('127.0.0.1', '1.1.1.1, 203.0.113.7'), '203.0.113.7');
  t.is(trust.clientAddress('::ffff:127.0.0.1', '1.1.1.1,203.0.113.7'), '203.0.113.7');
  t.is(trust.clientAddress('127.0.0.1', ''), '127.0.0.1', 'a direct connection is its own client');
  t.is(proxyTrust({ hops: 2 }).clientAddress('127.0.0.1', '9.9.9.9, 1.1.1.1, 203.0.113.7'), '1.1.1.1');
  t.is(proxyTrust({ hops: 3 }).clientAddress('127.0.0.1', '203.0.113.7'), '203.0.113.7', 'fewer entries than hops: the leftmost');
});

test('trusted networks: hops inside them are skipped from the right, and an untrusted peer is the client', (t) => {
  const trust = proxyTrust({ cidrs: ['127.0.0.0/8', '10.0.0.0/8', 'fd00::/8'] });
  t.is(trust.clientAddress('127.0.0.1', '1.1.1.1, 203.0.113.7, 10.1.2.3'), '203.0.113.7');
  t.is(trust.clientAddress('127.0.0.1', '1.1.1.1, 2001:db8::9, fd00::1'), '2001:db8::9');
  t.is(trust.clientAddress('198.51.100.4', '1.1.1.1, 203.0.113.7'), '198.51.100.4', 'a peer outside the networks speaks for itself');
  t.true(trust.trustsPeer('::ffff:10.0.0.5'));
  t.false(trust.trustsPeer('198.51.100.4'));
  t.is(trust.clientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2'), '10.0.0.1', 'all trusted: the leftmost');
});

test('only valid addresses come out: garbage, ports, brackets and mapped addresses are handled', (t) => {
  const trust = proxyTrust({ hops: 1 });
  t.is(trust.clientAddress('127.0.0.1', '-8+8'), '127.0.0.1', 'an entry that is no address: the hop that passed it on');
  t.is(trust.clientAddress('127.0.0.1', '1.1.1.1, <script>'), '127.0.0.1');
  t.is(proxyTrust(undefined).clientAddress('::ffff:192.0.2.1', '1.1.1.1'), '192.0.2.1', 'no proxy trusted: the header is ignored');
  t.is(parseAddress('203.0.113.7:5678'), '203.0.113.7');
  t.is(parseAddress('[2001:DB8::1]:443'), '2001:db8::1');
  t.is(parseAddress('fe80::1%eth0'), undefined);
  t.is(parseAddress('unknown'), undefined);
  t.is(parseAddress('1.2.3.4.5'), undefined);
});

test('SEXTANT_TRUSTED_PROXIES takes a hop count or CIDRs, implies SEXTANT_TRUST_PROXY, and refuses anything else', (t) => {
  const base = { SEXTANT_DATA_DIR: '/tmp/sextant-config-proxies', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' };
  t.is(loadConfig(base).trustedProxies, undefined);
  t.deepEqual(loadConfig({ ...base, SEXTANT_TRUST_PROXY: 'true' }).trustedProxies, { hops: 1 });
  const counted = loadConfig({ ...base, SEXTANT_TRUSTED_PROXIES: '2' });
  t.deepEqual(counted.trustedProxies, { hops: 2 });
  t.true(counted.trustProxy);
  t.deepEqual(loadConfig({ ...base, SEXTANT_TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies, { cidrs: ['10.0.0.0/8', '::1'] });
  for (const bad of ['0', '10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', ',']) {
    t.throws(() => loadConfig({ ...base, SEXTANT_TRUSTED_PROXIES: bad }), { message: /SEXTANT_TRUSTED_PROXIES/ }, bad);
  }
});

test('sign-in throttle: a throttled address stays throttled when the client prepends another address', async (t) => {
  const app = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
  t.teardown(() => app.stop());
  const user = await passwordUser(app);
  const wrong = (xff: string) => post(app, '/api/auth/token', { email: user.email, password: 'wrong password here' }, { 'x-forwarded-for': xff });
  for (let i = 0; i < 5; i++) t.is((await wrong('203.0.113.7')).status, 401);
  t.is((await wrong('203.0.113.7')).status, 429);
  t.is((await wrong('1.1.1.1, 203.0.113.7')).status, 429, 'the appending proxy saw 203.0.113.7');
  t.is((await wrong('203.0.113.7, 198.51.100.9')).status, 401, 'another client, whatever it claims on the left');
});

test('sign-in throttle: with trusted networks that exclude the peer, forwarded addresses are ignored', async (t) => {
  const app = await startAuthApp({ SEXTANT_TRUSTED_PROXIES: '10.0.0.0/8' });
  t.teardown(() => app.stop());
  const user = await passwordUser(app);
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await post(app, '/api/auth/token', { email: user.email, password: 'wrong password here' }, { 'x-forwarded-for': `203.0.113.${i}` })).status);
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
});

test('mail throttle: the per-client limit counts the address the proxy saw', async (t) => {
  const app = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true', SEXTANT_MAIL_PER_CLIENT_PER_HOUR: '2' });
  t.teardown(() => app.stop());
  const ask = (email: string, xff: string) => post(app, '/api/auth/magic_link/request', { email }, { 'x-forwarded-for': xff });
  t.is((await ask('a1@example.com', '203.0.113.8')).status, 202);
  t.is((await ask('a2@example.com', '203.0.113.8')).status, 202);
  t.is((await ask('a3@example.com', '203.0.113.8')).status, 429);
  t.is((await ask('a4@example.com', '1.1.1.1, 203.0.113.8')).status, 429);
  t.is((await ask('a5@example.com', '9.9.9.9, 203.0.113.9')).status, 202);
  await app.app.services.accountMail.idle();
});

test('OAuth registration quota: a prepended address does not buy another 30 registrations', async (t) => {
  const app = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
  t.teardown(() => app.stop());
  const meta = { client_name: 'Flood', redirect_uris: ['http://127.0.0.1:9/cb'], application_type: 'native', token_endpoint_auth_method: 'none' };
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) statuses.push((await post(app, '/oauth/reg', meta, { 'x-forwarded-for': `10.0.${i}.1, 203.0.113.10` })).status);
  t.deepEqual(statuses.slice(0, 30), Array(30).fill(201));
  t.is(statuses[30], 429);
});

test('audit: entries store the address the proxy saw, and never a value that is no address', async (t) => {
  const app = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
  t.teardown(() => app.stop());
  const user = await passwordUser(app);
  const signIn = (xff: string) => post(app, '/api/auth/token', { email: user.email, password: PASSWORD }, { 'x-forwarded-for': xff });
  t.is((await signIn('1.1.1.1, 203.0.113.11')).status, 200);
  t.is(lastAuditIp(app, 'sign_in'), '203.0.113.11');
  t.is((await signIn('-8+8')).status, 200);
  t.is(lastAuditIp(app, 'sign_in'), '127.0.0.1');
  // The gateway's own audit of a route (token creation) reads the same address.
  const bearer = { authorization: `Bearer ${app.session(user)}` };
  t.is((await post(app, '/api/auth/user/tokens', { name: 'audited' }, { ...bearer, 'x-forwarded-for': '1.1.1.1, 2001:DB8::7' })).status, 201);
  t.is(lastAuditIp(app, 'token_created'), '2001:db8::7');
  t.is((await post(app, '/api/auth/user/tokens', { name: 'audited' }, { ...bearer, 'x-forwarded-for': 'not-an-ip' })).status, 201);
  t.is(lastAuditIp(app, 'token_created'), '127.0.0.1');
});

test('the session cookie is Secure and HSTS is sent when a trusted proxy says https, and not otherwise', async (t) => {
  const trusted = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
  const untrusted = await startAuthApp({ SEXTANT_TRUSTED_PROXIES: '10.0.0.0/8' });
  t.teardown(async () => Promise.all([trusted.stop(), untrusted.stop()]));
  const signIn = async (app: TestApp, headers: Record<string, string>) => {
    const user = await passwordUser(app);
    const res = await post(app, '/api/auth/token', { email: user.email, password: PASSWORD }, headers);
    t.is(res.status, 200);
    return { cookie: res.headers.get('set-cookie') ?? '', hsts: res.headers.get('strict-transport-security') };
  };
  const https = await signIn(trusted, { 'x-forwarded-proto': 'https' });
  t.regex(https.cookie, /sextant_session=[^;]+;.*secure/i);
  t.regex(https.hsts ?? '', /max-age=\d+/);
  const plain = await signIn(trusted, {});
  t.notRegex(plain.cookie, /secure/i);
  t.is(plain.hsts, null);
  // A client's own claim appended to by a proxy that saw http: the proxy's word (rightmost) counts.
  t.notRegex((await signIn(trusted, { 'x-forwarded-proto': 'https, http' })).cookie, /secure/i);
  const spoofed = await signIn(untrusted, { 'x-forwarded-proto': 'https' });
  t.notRegex(spoofed.cookie, /secure/i, 'a peer outside the trusted networks cannot claim https');
  t.is(spoofed.hsts, null);
});

test('an https base URL sends HSTS on every answer and Secure cookies', async (t) => {
  const app = await startAuthApp({ SEXTANT_BASE_URL: 'https://sextant.example', SEXTANT_TRUST_PROXY: 'true' });
  t.teardown(() => app.stop());
  t.regex((await app.fetch('/api/health')).headers.get('strict-transport-security') ?? '', /max-age=31536000/);
  const user = await passwordUser(app);
  const res = await post(app, '/api/auth/token', { email: user.email, password: PASSWORD });
  t.is(res.status, 200);
  t.regex(res.headers.get('set-cookie') ?? '', /secure/i);
});
