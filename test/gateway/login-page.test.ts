import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { enrollMfa, PASSWORD, passwordUser, startAuthApp, totp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

/** A tiny browser: keeps cookies, submits forms, never follows redirects. */
function browser() {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === '' || /max-age=0/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  return {
    jar,
    get: async (path: string) => keep(await t0.fetch(path, { headers: { cookie: cookieHeader() }, redirect: 'manual' })),
    post: async (path: string, form: Record<string, string>) =>
      keep(await t0.fetch(path, { method: 'POST', redirect: 'manual', headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })),
  };
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

test('signing in on the page sets the session cookie and returns to the same-origin next path', async (t) => {
  const user = await passwordUser(t0);
  const b = browser();
  const form = await b.get('/login?next=%2Finteraction%2Fabc%3Fx%3D1');
  t.is(form.status, 200);
  t.regex(form.headers.get('content-type') ?? '', /text\/html/);
  const html = await form.text();
  const res = await b.post('/login', { csrf: csrfOf(html), next: '/interaction/abc?x=1', email: user.email, password: PASSWORD });
  t.is(res.status, 303);
  t.is(res.headers.get('location'), '/interaction/abc?x=1');
  t.true(b.jar.has('sextant_session'));
  const me = await b.get('/api/auth/me');
  t.is(me.status, 200);
});

test('next may not leave the origin', async (t) => {
  const user = await passwordUser(t0);
  for (const next of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)']) {
    const b = browser();
    const html = await (await b.get(`/login?next=${encodeURIComponent(next)}`)).text();
    const res = await b.post('/login', { csrf: csrfOf(html), next, email: user.email, password: PASSWORD });
    t.is(res.headers.get('location'), '/', next);
  }
});

test('a form without the CSRF token is refused', async (t) => {
  const user = await passwordUser(t0);
  const b = browser();
  await b.get('/login');
  const res = await b.post('/login', { csrf: 'forged', email: user.email, password: PASSWORD });
  t.is(res.status, 403);
  t.false(b.jar.has('sextant_session'));
  // A cross-site form has no CSRF cookie at all.
  const res2 = await browser().post('/login', { csrf: 'x', email: user.email, password: PASSWORD });
  t.is(res2.status, 403);
});

test('a wrong password re-renders the form with an error and no session', async (t) => {
  const user = await passwordUser(t0);
  const b = browser();
  const html = await (await b.get('/login')).text();
  const res = await b.post('/login', { csrf: csrfOf(html), email: user.email, password: 'wrong password!!' });
  t.is(res.status, 401);
  t.regex(await res.text(), /Incorrect email or password/);
  t.false(b.jar.has('sextant_session'));
});

test.serial('with MFA the page asks for the code, then signs in', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const b = browser();
  const html = await (await b.get('/login?next=/cli/approve')).text();
  const step = await b.post('/login', { csrf: csrfOf(html), next: '/cli/approve', email: user.email, password: PASSWORD });
  t.is(step.status, 200);
  const mfaHtml = await step.text();
  t.regex(mfaHtml, /action="\/login\/mfa"/);
  t.false(b.jar.has('sextant_session'));
  const wrong = await b.post('/login/mfa', { csrf: csrfOf(mfaHtml), next: '/cli/approve', code: '000000' });
  t.is(wrong.status, 401);
  const res = await b.post('/login/mfa', { csrf: csrfOf(await wrong.text()), next: '/cli/approve', code: totp(t0, secret) });
  t.is(res.status, 303);
  t.is(res.headers.get('location'), '/cli/approve');
  t.true(b.jar.has('sextant_session'));
  t.false(b.jar.has('sextant_mfa_pending'));
});

test.serial('when the organization enforces MFA, the page enrolls the user, shows recovery codes once and signs in', async (t) => {
  const orgId = t0.org(undefined, { mfaEnforced: true });
  const user = await passwordUser(t0, { orgId });
  const b = browser();
  const html = await (await b.get('/login?next=/consent')).text();
  const step = await b.post('/login', { csrf: csrfOf(html), next: '/consent', email: user.email, password: PASSWORD });
  t.is(step.status, 200);
  const enrollHtml = await step.text();
  t.regex(enrollHtml, /action="\/login\/enroll"/);
  const secret = /Key: <code>([A-Z2-7]+)<\/code>/.exec(enrollHtml)?.[1] ?? '';
  t.truthy(secret);
  t.false(b.jar.has('sextant_session'));
  const done = await b.post('/login/enroll', { csrf: csrfOf(enrollHtml), next: '/consent', code: totp(t0, secret) });
  t.is(done.status, 200);
  const codes = [...(await done.text()).matchAll(/<li><code>([^<]+)<\/code><\/li>/g)];
  t.is(codes.length, 10);
  t.true(b.jar.has('sextant_session'));
  t.false(b.jar.has('sextant_mfa_enrollment'));
  t.is((await b.get('/api/auth/me')).status, 200);
});
