import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { browser, formField } from '../../helpers/cookie-jar.ts';
import { call } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

async function start() {
  const res = await call(t0, 'POST', '/api/auth/cli/login/start');
  const url = new URL(res.body['authorize_url'] as string);
  return { code: res.body['code'] as string, userCode: res.body['user_code'] as string, pagePath: url.pathname + url.search, browserCode: url.searchParams.get('code')! };
}
const poll = (code: string) => call(t0, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`);

function signedIn() {
  const b = browser(t0.url);
  const user = t0.user();
  b.setCookie('sextant_session', t0.session(user));
  return { b, user };
}

test('without a session the page sends the person to sign in and back', async (t) => {
  const s = await start();
  const res = await browser(t0.url).fetch(s.pagePath);
  t.is(res.status, 302);
  const location = new URL(res.headers.get('location')!, t0.url);
  t.is(location.pathname, '/login');
  t.is(location.searchParams.get('next'), s.pagePath);
});

test('an expired or invalid session cookie is treated as signed out', async (t) => {
  const s = await start();
  const b = browser(t0.url);
  b.setCookie('sextant_session', 'not-a-jwt');
  t.is((await b.fetch(s.pagePath)).status, 302);
});

test('a signed-in person sees the user_code, approves, and the CLI receives a token', async (t) => {
  const { b, user } = signedIn();
  const s = await start();
  const page = await b.fetch(s.pagePath);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /text\/html/);
  t.is(page.headers.get('cache-control'), 'no-store');
  const html = await page.text();
  t.true(html.includes(s.userCode));
  t.true(html.includes(user.email));
  t.false(html.includes(s.code));
  const csrf = formField(html, 'csrf')!;
  t.truthy(csrf);
  t.is(formField(html, 'code'), s.browserCode);

  const approved = await b.submit('/cli/authorize/approve', { code: s.browserCode, csrf });
  t.is(approved.status, 200);
  t.true((await approved.text()).includes('CLI signed in'));
  const claimed = await poll(s.code);
  t.is(claimed.body['status'], 'complete');
  t.is(claimed.body['user_id'], user.id);
});

test('the page denies a sign-in on request', async (t) => {
  const { b } = signedIn();
  const s = await start();
  const csrf = formField(await (await b.fetch(s.pagePath)).text(), 'csrf')!;
  const denied = await b.submit('/cli/authorize/deny', { code: s.browserCode, csrf });
  t.is(denied.status, 200);
  const res = await poll(s.code);
  t.is(res.status, 403);
  t.is(res.body.code, 'CLI_LOGIN_DENIED');
});

test('form posts without a valid CSRF token are refused and change nothing', async (t) => {
  const { b } = signedIn();
  const s = await start();
  const other = await start();
  const csrfForOther = formField(await (await b.fetch(other.pagePath)).text(), 'csrf')!;
  const { b: b2 } = signedIn();
  const csrfOfOtherSession = formField(await (await b2.fetch(s.pagePath)).text(), 'csrf')!;
  for (const csrf of [undefined, '', 'forged', csrfForOther, csrfOfOtherSession]) {
    for (const action of ['approve', 'deny']) {
      const fields: Record<string, string> = { code: s.browserCode };
      if (csrf !== undefined) fields['csrf'] = csrf;
      const res = await b.submit(`/cli/authorize/${action}`, fields);
      t.is(res.status, 403, `${action} with ${String(csrf)}`);
    }
  }
  t.is((await poll(s.code)).body['status'], 'pending');
});

test('a form post without a session redirects to sign-in', async (t) => {
  const s = await start();
  const res = await browser(t0.url).submit('/cli/authorize/approve', { code: s.browserCode, csrf: 'x' });
  t.is(res.status, 303);
  t.is(new URL(res.headers.get('location')!, t0.url).searchParams.get('next'), s.pagePath);
  t.is((await poll(s.code)).body['status'], 'pending');
});

test('unknown, missing, decided and expired codes get a clear page', async (t) => {
  const { b } = signedIn();
  t.is((await b.fetch('/cli/authorize?code=unknown')).status, 404);
  t.is((await b.fetch('/cli/authorize')).status, 404);
  const s = await start();
  const csrf = formField(await (await b.fetch(s.pagePath)).text(), 'csrf')!;
  await b.submit('/cli/authorize/approve', { code: s.browserCode, csrf });
  t.is((await b.fetch(s.pagePath)).status, 409);
  t.is((await b.submit('/cli/authorize/approve', { code: s.browserCode, csrf })).status, 409);
});

test.serial('an expired sign-in shows the expired page', async (t) => {
  const { b } = signedIn();
  const s = await start();
  const csrf = formField(await (await b.fetch(s.pagePath)).text(), 'csrf')!;
  t0.clock.advance(10 * 60 * 1000);
  const res = await b.fetch(s.pagePath);
  t.is(res.status, 410);
  t.true((await res.text()).includes('expired'));
  t.is((await b.submit('/cli/authorize/approve', { code: s.browserCode, csrf })).status, 410);
});

test('the page never echoes markup from the URL', async (t) => {
  const { b } = signedIn();
  const res = await b.fetch(`/cli/authorize?code=${encodeURIComponent('"><script>alert(1)</script>')}`);
  t.false((await res.text()).includes('<script>'));
});

test('a malformed form post answers 422', async (t) => {
  const { b } = signedIn();
  const res = await b.submit('/cli/authorize/approve', { csrf: 'x' });
  t.is(res.status, 422);
});
