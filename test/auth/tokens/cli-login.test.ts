import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

interface Started {
  code: string;
  user_code: string;
  authorize_url: string;
  expires_in: number;
  interval: number;
}

async function start(): Promise<Started & { browserCode: string }> {
  const res = await call(t0, 'POST', '/api/auth/cli/login/start');
  if (res.status !== 200) throw new Error(`start answered ${res.status}`);
  const started = res.body as unknown as Started;
  return { ...started, browserCode: new URL(started.authorize_url).searchParams.get('code')! };
}
const poll = (code: string) => call(t0, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`);
const info = (code: string, session: string) => call(t0, 'GET', `/api/auth/cli/login/info?code=${encodeURIComponent(code)}`, { session });
const complete = (code: string, session: string) => call(t0, 'POST', '/api/auth/cli/login/complete', { session }, { code });

test('start returns a secret poll code, a short user_code and an authorize URL that does not carry the poll code', async (t) => {
  const s = await start();
  t.regex(s.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  t.true(s.authorize_url.startsWith(`${t0.config.baseUrl}/cli/authorize?code=`));
  t.false(s.authorize_url.includes(s.code));
  t.true(s.code.length >= 40);
  t.is(s.expires_in, 600);
  t.true(s.interval >= 1);
});

test('the full flow: pending, approved in the browser, then the token exactly once', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const s = await start();
  const pending = await poll(s.code);
  t.is(pending.status, 200);
  t.is(pending.body['status'], 'pending');

  const shown = await info(s.browserCode, session);
  t.is(shown.status, 200);
  t.deepEqual(Object.keys(shown.body).sort(), ['expires_at', 'user_code']);
  t.is(shown.body['user_code'], s.user_code);

  const done = await complete(s.browserCode, session);
  t.is(done.status, 200);
  t.is(done.body['status'], 'approved');

  const claimed = await poll(s.code);
  t.is(claimed.status, 200);
  t.is(claimed.body['status'], 'complete');
  t.is(claimed.body['user_id'], user.id);
  t.is(claimed.body['email'], user.email);
  t.deepEqual(claimed.body['scopes'], ['api:full']);
  const token = claimed.body['token'] as string;
  t.regex(token, /^sxt_cli_/);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: token })).status, 200);

  const again = await poll(s.code);
  t.is(again.status, 404);
  t.is(again.body.code, 'CLI_LOGIN_NOT_FOUND');
});

test('of 20 concurrent polls of an approved sign-in exactly one receives the token', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  await complete(s.browserCode, session);
  const results = await Promise.all(Array.from({ length: 20 }, () => poll(s.code)));
  const winners = results.filter((r) => r.status === 200 && r.body['status'] === 'complete');
  t.is(winners.length, 1);
  t.true(results.filter((r) => r !== winners[0]).every((r) => r.status === 404));
});

test('the store keeps only hashes of the codes and the held token sealed', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  await complete(s.browserCode, session);
  const row = t0.app.services.store.sqlite!.prepare('SELECT * FROM cli_logins').all();
  const dump = JSON.stringify(row);
  for (const secret of [s.code, s.browserCode, s.user_code]) t.false(dump.includes(secret));
  const token = (await poll(s.code)).body['token'] as string;
  t.false(dump.includes(token));
});

test('the browser code of the URL cannot claim the token', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  await complete(s.browserCode, session);
  t.is((await poll(s.browserCode)).status, 404);
  t.is((await poll(s.code)).body['status'], 'complete');
});

test('complete also accepts the poll code itself', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  t.is((await info(s.code, session)).body['user_code'], s.user_code);
  t.is((await complete(s.code, session)).status, 200);
  t.is((await poll(s.code)).body['status'], 'complete');
});

test('approving revokes the user\'s earlier CLI tokens', async (t) => {
  const user = t0.user();
  const old = t0.token(user, 'cli');
  const s = await start();
  await complete(s.browserCode, t0.session(user));
  const res = await call(t0, 'GET', '/api/auth/user/tokens', { key: old });
  t.is(res.status, 401);
  t.is((await poll(s.code)).body['status'], 'complete');
});

test('a sign-in is decided once: a second approval answers 409 and mints nothing', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const s = await start();
  t.is((await complete(s.browserCode, session)).status, 200);
  const second = await complete(s.browserCode, t0.session(t0.user()));
  t.is(second.status, 409);
  t.is(second.body.code, 'CLI_LOGIN_ALREADY_DECIDED');
  t.is((await info(s.browserCode, session)).status, 409);
  t.is((await poll(s.code)).body['user_id'], user.id);
});

test('a denied sign-in answers 403 CLI_LOGIN_DENIED to the poll', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  const denied = await call(t0, 'POST', '/api/auth/cli/login/deny', { session }, { code: s.browserCode });
  t.is(denied.status, 200);
  for (let i = 0; i < 2; i++) {
    const res = await poll(s.code);
    t.is(res.status, 403);
    t.is(res.body.code, 'CLI_LOGIN_DENIED');
  }
  t.is((await complete(s.browserCode, session)).status, 409);
});

test.serial('codes expire after 10 minutes: poll, info and complete answer 410 CLI_LOGIN_EXPIRED', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  t0.clock.advance(10 * 60 * 1000 - 1);
  t.is((await poll(s.code)).body['status'], 'pending');
  t0.clock.advance(1);
  for (const res of [await poll(s.code), await info(s.browserCode, session), await complete(s.browserCode, session)]) {
    t.is(res.status, 410);
    t.is(res.body.code, 'CLI_LOGIN_EXPIRED');
  }
});

test.serial('a token approved but never claimed is revoked when the code expires', async (t) => {
  const user = t0.user();
  const s = await start();
  await complete(s.browserCode, t0.session(user));
  const tokenId = (t0.app.services.store.sqlite!.prepare('SELECT token_id FROM cli_logins WHERE token_id IS NOT NULL').pluck().all() as string[]).at(-1)!;
  t0.clock.advance(10 * 60 * 1000);
  const res = await poll(s.code);
  t.is(res.status, 410);
  const revoked = t0.app.services.store.sqlite!.prepare('SELECT revoked_at FROM api_tokens WHERE id = ?').pluck().get(tokenId);
  t.is(revoked, t0.clock.now());
});

test.serial('expired records are deleted an hour after expiry', async (t) => {
  const s = await start();
  t0.clock.advance(10 * 60 * 1000 + 3600 * 1000);
  await start();
  const res = await poll(s.code);
  t.is(res.status, 404);
});

test('unknown codes answer 404 everywhere', async (t) => {
  const session = t0.session(t0.user());
  t.is((await poll('nope')).status, 404);
  t.is((await info('nope', session)).status, 404);
  const res = await complete('nope', session);
  t.is(res.status, 404);
  t.is(res.body.code, 'CLI_LOGIN_NOT_FOUND');
});

test('info, complete and deny need a REST credential; start and poll need none', async (t) => {
  const s = await start();
  t.is((await call(t0, 'GET', `/api/auth/cli/login/info?code=${s.browserCode}`)).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/cli/login/complete', {}, { code: s.browserCode })).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/cli/login/deny', {}, { code: s.browserCode })).status, 401);
  const mcp = t0.token(t0.user(), 'mcp');
  const refused = await call(t0, 'POST', '/api/auth/cli/login/complete', { key: mcp }, { code: s.browserCode });
  t.is(refused.status, 403);
  t.is((await poll(s.code)).body['status'], 'pending');
});

test('missing or oversized codes answer 422', async (t) => {
  const session = t0.session(t0.user());
  const cases = [
    await call(t0, 'GET', '/api/auth/cli/login/poll'),
    await call(t0, 'GET', `/api/auth/cli/login/poll?code=${'x'.repeat(201)}`),
    await call(t0, 'GET', '/api/auth/cli/login/info', { session }),
  ];
  for (const res of cases) {
    t.is(res.status, 422);
    t.deepEqual((res.body.detail as { loc: unknown[] }[])[0]?.loc, ['query', 'code']);
  }
  const body = await call(t0, 'POST', '/api/auth/cli/login/complete', { session }, {});
  t.is(body.status, 422);
  t.deepEqual((body.body.detail as { loc: unknown[] }[])[0]?.loc, ['body', 'code']);
});

test('the CLI token acts in the organization the approver was signed in to', async (t) => {
  const base = t0.org();
  const user = t0.user({ orgId: base });
  const s = await start();
  await complete(s.browserCode, t0.session(user));
  t.is((await poll(s.code)).body['org_id'], base);
});

test('the code lifetime follows SEXTANT_CLI_LOGIN_TTL_SECONDS', async (t) => {
  const t1 = await startTestApp({ SEXTANT_CLI_LOGIN_TTL_SECONDS: '120' });
  try {
    const res = await call(t1, 'POST', '/api/auth/cli/login/start');
    t.is(res.body['expires_in'], 120);
    t1.clock.advance(120_000);
    const polled = await call(t1, 'GET', `/api/auth/cli/login/poll?code=${res.body['code'] as string}`);
    t.is(polled.status, 410);
  } finally {
    await t1.stop();
  }
});

test('a held token superseded by a newer CLI token before the claim is not handed over', async (t) => {
  const session = t0.session(t0.user());
  const s = await start();
  await complete(s.browserCode, session);
  await call(t0, 'POST', '/api/auth/user/tokens/cli', { session });
  const res = await poll(s.code);
  t.is(res.status, 410);
  t.is(res.body.code, 'CLI_LOGIN_EXPIRED');
});
