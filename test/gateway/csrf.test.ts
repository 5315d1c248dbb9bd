// CSRF protection of the REST API: the double-submit header on cookie-borne state changes, Fetch
// Metadata against cross-site browser requests (login CSRF included), and explicit credentials untouched.
import test from 'ava';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_CORS_ORIGINS: 'https://trusted.example' });
});
test.after.always(() => t0.stop());

const TOKEN = 'csrf-token-value-0123456789abcdef';
const create = (headers: Record<string, string>) =>
  t0.fetch('/api/auth/user/tokens', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name: 'from a page' }) });

test('a state change carried by the session cookie needs the X-CSRF-Token header equal to the sextant_csrf cookie', async (t) => {
  const session = t0.session(t0.user());
  const missing = await create({ cookie: `sextant_session=${session}` });
  t.is(missing.status, 403);
  t.is(((await missing.json()) as { code: string }).code, 'CSRF_TOKEN_INVALID');
  const wrong = await create({ cookie: `sextant_session=${session}; sextant_csrf=${TOKEN}`, 'X-CSRF-Token': `${TOKEN}x` });
  t.is(wrong.status, 403);
  const headerOnly = await create({ cookie: `sextant_session=${session}`, 'X-CSRF-Token': TOKEN });
  t.is(headerOnly.status, 403);
  const ok = await create({ cookie: `sextant_session=${session}; sextant_csrf=${TOKEN}`, 'X-CSRF-Token': TOKEN });
  t.is(ok.status, 201);
});

test('reads with the cookie, and requests with API-KEY or a bearer token, need no CSRF token', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  t.is((await t0.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${session}` } })).status, 200);
  t.is((await create({ authorization: `Bearer ${session}`, cookie: `sextant_session=${session}` })).status, 201);
  t.is((await create({ 'API-KEY': t0.token(user) })).status, 201);
});

test('a cross-site or same-site browser request is refused before it signs anyone in (login CSRF)', async (t) => {
  const user = await passwordUser(t0);
  const form = new URLSearchParams({ username: user.email, password: PASSWORD }).toString();
  for (const site of ['cross-site', 'same-site']) {
    const res = await t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': site, origin: 'https://evil.example' }, body: form });
    t.is(res.status, 403, site);
    t.is(((await res.json()) as { code: string }).code, 'CROSS_SITE_REQUEST');
    t.is(res.headers.get('set-cookie'), null);
  }
  const sameOrigin = await t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: form });
  t.is(sameOrigin.status, 200);
  // An allowed CORS origin may call the API from its own pages.
  const trusted = await t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://trusted.example' }, body: JSON.stringify({ email: user.email, password: PASSWORD }) });
  t.is(trusted.status, 200);
});
