// OAuth 2.1 keeps one way to get a token for a user: the authorization code with PKCE. The implicit and
// hybrid flows (tokens or id_tokens in the redirect) and the grants without a user are offered nowhere:
// not in the metadata, not to dynamic registration, not at the authorization or token endpoints.
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { CookieJar, REDIRECT_URL, tokenRequest, visit } from '../../helpers/oauth-browser.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
const register = (meta: Record<string, unknown>) =>
  t0.fetch('/oauth/reg', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Flows', redirect_uris: [REDIRECT_URL], application_type: 'native', token_endpoint_auth_method: 'none', ...meta }),
  });

test('the metadata offers the authorization code flow with PKCE (S256) and refresh tokens, nothing else', async (t) => {
  for (const path of ['/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration', '/.well-known/openid-configuration/oauth']) {
    const meta = await json(await t0.fetch(path));
    t.deepEqual(meta['response_types_supported'], ['code'], path);
    t.deepEqual([...(meta['grant_types_supported'] as string[])].sort(), ['authorization_code', 'refresh_token'], path);
    t.deepEqual(meta['code_challenge_methods_supported'], ['S256'], path);
  }
});

test('dynamic registration refuses implicit, hybrid and user-less flows with invalid_client_metadata and registers nothing', async (t) => {
  const registered = () => t0.app.services.store.sqlite!.prepare("SELECT count(*) FROM oauth_models WHERE model = 'Client' AND payload LIKE '%Refused flow%'").pluck().get();
  const refused: Record<string, unknown>[] = [
    { grant_types: ['implicit'] },
    { grant_types: ['implicit'], response_types: ['code'] },
    { grant_types: ['authorization_code', 'implicit'] },
    { grant_types: ['client_credentials'] },
    { grant_types: ['password'] },
    { grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] },
    { grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] },
    { response_types: ['id_token'] },
    { response_types: ['token'] },
    { response_types: ['id_token token'] },
    { response_types: ['code id_token'] },
    { response_types: ['code token'] },
    { response_types: ['code id_token token'] },
    { response_types: ['none'] },
    { response_types: ['code', 'id_token'] },
    { grant_types: ['implicit'], response_types: ['id_token'] },
    { grant_types: 'implicit' },
    { response_types: 'code id_token' },
  ];
  for (const meta of refused) {
    const res = await register({ client_name: 'Refused flow', ...meta });
    t.is(res.status, 400, JSON.stringify(meta));
    t.is((await json(res))['error'], 'invalid_client_metadata', JSON.stringify(meta));
  }
  t.is(registered(), 0);
  // What MCP clients send, and nothing at all, register the code flow.
  for (const meta of [{ grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }, { grant_types: ['authorization_code'] }, {}]) {
    const res = await register(meta);
    t.is(res.status, 201, JSON.stringify(meta));
    const body = await json(res);
    t.deepEqual(body['response_types'], ['code']);
    t.false((body['grant_types'] as string[]).includes('implicit'));
  }
});

async function clientId(): Promise<string> {
  return (await json(await register({})))['client_id'] as string;
}

test('the authorization endpoint answers every response type but code with unsupported_response_type and issues nothing', async (t) => {
  const id = await clientId();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = new CookieJar();
  jar.set('sextant_session', t0.session(t0.user()));
  for (const responseType of ['token', 'id_token', 'id_token token', 'code id_token', 'code token', 'none']) {
    const url = new URL(`${t0.url}/oauth/auth`);
    for (const [k, v] of Object.entries({ response_type: responseType, client_id: id, redirect_uri: REDIRECT_URL, scope: 'openid mcp:tools', state: 's', nonce: 'n', code_challenge: challenge, code_challenge_method: 'S256' })) url.searchParams.set(k, v);
    const res = await visit(jar, url);
    const location = res.headers.get('location') ?? '';
    const text = location || (await res.text());
    t.regex(text, /unsupported_response_type/, responseType);
    t.notRegex(text, /access_token=|id_token=|[?&#]code=/, responseType);
  }
});

test('the token endpoint refuses grants without a user or a code', async (t) => {
  const id = await clientId();
  for (const grant of ['implicit', 'password', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']) {
    const res = await tokenRequest(t0.url, { grant_type: grant, client_id: id, username: 'x', password: 'y', scope: 'mcp:tools' });
    t.is(res.status, 400, grant);
    t.is(res.body['error'], 'unsupported_grant_type', grant);
  }
});

test('a PKCE challenge with the plain method is refused', async (t) => {
  const id = await clientId();
  const jar = new CookieJar();
  jar.set('sextant_session', t0.session(t0.user()));
  const url = new URL(`${t0.url}/oauth/auth`);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: id, redirect_uri: REDIRECT_URL, scope: 'mcp:tools', state: 's', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })) url.searchParams.set(k, v);
  const back = new URL((await visit(jar, url)).headers.get('location') ?? '', t0.url);
  t.is(back.searchParams.get('error'), 'invalid_request');
  t.is(back.searchParams.get('code'), null);
});
