import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PASSWORD, passwordUser } from '../../helpers/auth.ts';
import { authorize, CookieJar, csrfOf, follow, REDIRECT_URL, submitConsent, tokenRequest, visit } from '../../helpers/oauth-browser.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

async function register(app: TestApp, meta: Record<string, unknown>) {
  return app.fetch('/oauth/reg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(meta) });
}

async function nativeClient(app: TestApp, redirect = REDIRECT_URL): Promise<string> {
  const res = await register(app, { client_name: 'Native test', redirect_uris: [redirect], application_type: 'native', token_endpoint_auth_method: 'none' });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return (await json(res))['client_id'] as string;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authUrl(app: TestApp, clientId: string, params: Record<string, string | undefined>): URL {
  const url = new URL(`${app.url}/oauth/auth`);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URL,
    scope: 'mcp:tools',
    state: 'st4te',
    code_challenge_method: 'S256',
    resource: `${app.url}/ai/mcp`,
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

function signedIn(app: TestApp, orgId?: string) {
  const jar = new CookieJar();
  jar.set('sextant_session', app.session(app.user(orgId ? { orgId } : {})));
  return jar;
}

/** A full manual authorization: returns the code and the verifier. */
async function codeFor(app: TestApp) {
  const clientId = await nativeClient(app);
  const { verifier, challenge } = pkce();
  const callback = await authorize(signedIn(app), authUrl(app, clientId, { code_challenge: challenge }));
  return { clientId, verifier, code: callback.searchParams.get('code')! };
}

const redeem = (app: TestApp, c: { clientId: string; code: string }, extra: Record<string, string>) =>
  tokenRequest(app.url, { grant_type: 'authorization_code', code: c.code, client_id: c.clientId, redirect_uri: REDIRECT_URL, resource: `${app.url}/ai/mcp`, ...extra });

test('protected resource metadata names the MCP resource and the authorization server, in path and root form', async (t) => {
  for (const path of ['/.well-known/oauth-protected-resource/ai/mcp', '/.well-known/oauth-protected-resource']) {
    const res = await t0.fetch(path);
    t.is(res.status, 200);
    t.like(await json(res), { resource: `${t0.url}/ai/mcp`, authorization_servers: [`${t0.url}/oauth`], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] });
  }
});

test('authorization server metadata is served at the RFC 8414 and OIDC locations', async (t) => {
  for (const path of ['/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration', '/.well-known/openid-configuration/oauth']) {
    const res = await t0.fetch(path);
    t.is(res.status, 200, path);
    const meta = await json(res);
    t.is(meta['issuer'], `${t0.url}/oauth`);
    t.deepEqual(meta['code_challenge_methods_supported'], ['S256']);
    t.is(meta['registration_endpoint'], `${t0.url}/oauth/reg`);
    t.true((meta['scopes_supported'] as string[]).includes('mcp:tools'));
    t.true(meta['authorization_response_iss_parameter_supported'] as boolean);
    t.true(meta['client_id_metadata_document_supported'] as boolean);
  }
});

test('the MCP endpoint answers 401 with a challenge pointing to the protected resource metadata', async (t) => {
  const res = await t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(res.status, 401);
  t.is(res.headers.get('www-authenticate'), `Bearer resource_metadata="${t0.url}/.well-known/oauth-protected-resource/ai/mcp", scope="mcp:tools"`);
  const bad = await t0.fetch('/ai/mcp', { method: 'POST', headers: { Authorization: 'Bearer nope' } });
  t.is(bad.status, 401);
  t.regex(bad.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token", resource_metadata=/);
});

test('an access token in the URL is refused', async (t) => {
  const res = await t0.fetch('/ai/mcp?access_token=abc', { method: 'POST' });
  t.is(res.status, 401);
  t.is((await json(res))['code'], 'TOKEN_IN_URL');
});

test('registration accepts https, loopback http and private-use schemes for native apps only', async (t) => {
  const ok = [
    { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] },
    { redirect_uris: ['http://127.0.0.1:33418/callback'], application_type: 'native' },
    { redirect_uris: ['http://localhost:6274/oauth/callback'] },
    { redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'], application_type: 'native' },
  ];
  for (const meta of ok) t.is((await register(t0, { ...meta, token_endpoint_auth_method: 'none' })).status, 201, JSON.stringify(meta));
  const refused = [
    { redirect_uris: ['http://example.com/callback'] },
    { redirect_uris: ['http://example.com/callback'], application_type: 'native' },
    { redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] },
    { redirect_uris: ['javascript:alert(1)'], application_type: 'native' },
  ];
  for (const meta of refused) {
    const res = await register(t0, { ...meta, token_endpoint_auth_method: 'none' });
    t.is(res.status, 400, JSON.stringify(meta));
    t.regex(String((await json(res))['error']), /^invalid_(client_metadata|redirect_uri)$/);
  }
});

test('an authorization request without a PKCE challenge is refused', async (t) => {
  const clientId = await nativeClient(t0);
  const res = await visit(signedIn(t0), authUrl(t0, clientId, { code_challenge_method: undefined }));
  const back = new URL(res.headers.get('location') ?? '', t0.url);
  t.is(back.origin + back.pathname, REDIRECT_URL);
  t.is(back.searchParams.get('error'), 'invalid_request');
});

test('a code is redeemed only with its PKCE verifier, once', async (t) => {
  const c = await codeFor(t0);
  t.is((await redeem(t0, c, {})).body['error'], 'invalid_grant');
  const c2 = await codeFor(t0);
  t.is((await redeem(t0, c2, { code_verifier: pkce().verifier })).body['error'], 'invalid_grant');
  const c3 = await codeFor(t0);
  const ok = await redeem(t0, c3, { code_verifier: c3.verifier });
  t.is(ok.status, 200);
  t.is(ok.body['token_type'], 'Bearer');
  t.is(ok.body['expires_in'], 3600);
  t.truthy(ok.body['refresh_token']);
  t.is((await redeem(t0, c3, { code_verifier: c3.verifier })).body['error'], 'invalid_grant');
});

test('tokens are only issued for the MCP resource', async (t) => {
  const clientId = await nativeClient(t0);
  const { challenge } = pkce();
  const res = await follow(signedIn(t0), authUrl(t0, clientId, { code_challenge: challenge, resource: 'https://evil.example/mcp' }));
  t.is(res.url.searchParams.get('error'), 'invalid_target');
});

test('a token bound to another audience, or without the MCP scope, is refused at /ai/mcp', async (t) => {
  const c = await codeFor(t0);
  const { body } = await redeem(t0, c, { code_verifier: c.verifier });
  const token = body['access_token'] as string;
  const call = (bearer: string) => t0.fetch('/ai/mcp', { method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
  t.is((await call(token)).status, 200);
  const db = t0.app.services.store.sqlite!;
  const row = db.prepare("SELECT * FROM oauth_models WHERE model = 'AccessToken' AND id = ?").get(token) as Record<string, unknown>;
  const forge = (id: string, change: Record<string, unknown>) => {
    const payload = { ...(JSON.parse(row['payload'] as string) as Record<string, unknown>), jti: id, ...change };
    db.prepare('INSERT INTO oauth_models (model, id, payload, grant_id, client_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      'AccessToken', id, JSON.stringify(payload), row['grant_id'], row['client_id'], row['created_at'], row['expires_at'],
    );
  };
  forge('otheraudiencetoken0000000000000000000000000', { aud: 'https://evil.example/mcp' });
  const wrongAud = await call('otheraudiencetoken0000000000000000000000000');
  t.is(wrongAud.status, 401);
  t.regex(wrongAud.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  forge('noscopetoken000000000000000000000000000000', { scope: 'openid' });
  const noScope = await call('noscopetoken000000000000000000000000000000');
  t.is(noScope.status, 403);
  t.regex(noScope.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
});

test('without a signed-in session the sign-in step goes through the sign-in page and back to consent', async (t) => {
  const clientId = await nativeClient(t0);
  const jar = new CookieJar();
  const page = await follow(jar, authUrl(t0, clientId, { code_challenge: pkce().challenge }), `${t0.url}/login`);
  t.is(page.url.pathname, '/login');
  const next = page.url.searchParams.get('next') ?? '';
  t.regex(next, /^\/interaction\/[\w-]+$/);
  // The web client's sign-in page signs in through the API (which sets the session cookie), then
  // loads `next`, the consent page (test/web covers the page itself in Chromium).
  const user = await passwordUser(t0);
  const signIn = await visit(jar, `${t0.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  t.is(signIn.status, 200);
  const consent = await follow(jar, new URL(next, t0.url));
  t.is(consent.res.status, 200);
  t.regex(consent.html, /name="csrf"/);
});

test('the consent page names the client, the redirect host and the permissions; a bad CSRF token is refused; Deny ends with access_denied', async (t) => {
  const clientId = await nativeClient(t0);
  const jar = signedIn(t0);
  const consent = await follow(jar, authUrl(t0, clientId, { code_challenge: pkce().challenge }));
  t.is(consent.res.status, 200);
  t.regex(consent.html, /Native test/);
  t.regex(consent.html, /127\.0\.0\.1:1/);
  t.regex(consent.html, /ask questions/);
  const forged = await submitConsent(jar, consent, 'confirm', 'forged');
  t.is(forged.res.status, 403);
  const denied = await submitConsent(jar, consent, 'abort', csrfOf(consent.html));
  t.is(denied.url.searchParams.get('error'), 'access_denied');
});

test('a consent page older than 10 minutes answers "Authorization session expired"', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const clientId = await nativeClient(app);
  const jar = signedIn(app);
  const consent = await follow(jar, authUrl(app, clientId, { code_challenge: pkce().challenge }));
  t.is(consent.res.status, 200);
  app.clock.advance(10 * 60 * 1000);
  const again = await visit(jar, consent.url);
  t.is(again.status, 410);
  t.regex(await again.text(), /Authorization session expired/);
  const late = await submitConsent(jar, consent);
  t.is(late.res.status, 410);
  t.regex(late.html, /Authorization session expired/);
});

test('an unknown or finished interaction answers "Authorization session expired"', async (t) => {
  const res = await visit(signedIn(t0), `${t0.url}/interaction/unknown-uid`);
  t.is(res.status, 410);
  t.regex(await res.text(), /Authorization session expired/);
});

test('open registration is rate limited per client address', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const meta = { redirect_uris: [REDIRECT_URL], application_type: 'native', token_endpoint_auth_method: 'none' };
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) statuses.push((await register(app, meta)).status);
  t.deepEqual(statuses.slice(0, 30), Array(30).fill(201));
  t.is(statuses[30], 429);
  app.clock.advance(3600_000);
  t.is((await register(app, meta)).status, 201);
});

test('a browser origin that is not ours is refused at /ai/mcp', async (t) => {
  const res = await t0.fetch('/ai/mcp', { method: 'POST', headers: { Origin: 'https://evil.example', 'X-API-KEY': t0.token(t0.user(), 'mcp') } });
  t.is(res.status, 403);
  t.is((await json(res))['code'], 'ORIGIN_NOT_ALLOWED');
});

test('a client metadata document on a loopback or private host is never fetched', async (t) => {
  const res = await visit(signedIn(t0), authUrl(t0, 'https://127.0.0.1/client.json', { code_challenge: pkce().challenge }));
  t.is(res.status, 400);
  t.regex(await res.text(), /invalid_client/);
});
