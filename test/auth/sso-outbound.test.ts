// An attacker who registers an organization of their own is its admin, and names SSO issuers the
// gateway then fetches. Whatever internal address they aim at, in whatever spelling, through a name, a
// discovery document or a redirect, the gateway sends nothing there (the internal server hears nothing),
// and every failure reads alike: the answers map no ports and repeat nothing fetched.
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../helpers/auth.ts';
import { fakeDns, startInternalServer, type InternalServer } from '../helpers/internal-server.ts';

const BASE = '/api/admin/sso/providers';
const SECRET = 'client-secret-the-attacker-chose';
let t0: TestApp;
/** The internal service the attacker aims at: it must hear nothing. */
let internal: InternalServer;
/** A public identity provider (allowed by name) that serves discovery documents naming internal endpoints. */
let idp: InternalServer;
/** An allowed host that answers 404 to everything, and one that answers someone else's discovery document. */
let notFound: InternalServer;
let otherDoc: InternalServer;
const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

const idpUrl = (path = '') => `http://idp.public.example:${idp.port}${path}`;
const internalUrl = (path = '') => `http://127.0.0.1:${internal.port}${path}`;

/** Discovery documents by issuer path: each names one endpoint the attacker wants the gateway to call. */
function discovery(path: string): Record<string, string> | undefined {
  const issuer = idpUrl(`/${path}`);
  const base = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` };
  if (path === 'internal-token') return { ...base, token_endpoint: internalUrl('/internal/token') };
  if (path === 'internal-jwks') return { ...base, jwks_uri: internalUrl('/internal/jwks') };
  if (path === 'dead-token') return { ...base, token_endpoint: `http://nothing.public.example:9/token` };
  if (path === 'html-token') return { ...base, token_endpoint: `http://notfound.public.example:${notFound.port}/token` };
  return undefined;
}

function serveIdp(url: string, res: ServerResponse): void {
  const [, path = '', rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(url) ?? [];
  res.setHeader('content-type', 'application/json');
  if (path === 'redirect') {
    res.writeHead(302, { location: internalUrl(rest) });
    return void res.end();
  }
  const doc = discovery(path);
  if (doc && rest === '/.well-known/openid-configuration') return void res.end(JSON.stringify(doc));
  if (doc && rest === '/token') return void res.end(JSON.stringify({ id_token: jwt.sign({ sub: 'x' }, key, { algorithm: 'RS256', keyid: 'k1', issuer: doc['issuer'], audience: 'attacker-client' }) }));
  res.statusCode = 404;
  res.end('{}');
}

test.before(async () => {
  internal = await startInternalServer();
  idp = await startInternalServer((req, res) => serveIdp(req.url ?? '', res));
  notFound = await startInternalServer((_req, res) => {
    res.statusCode = 404;
    res.end('<h1>internal-secret-404-page</h1>');
  });
  otherDoc = await startInternalServer();
  const names = { 'idp.public.example': '127.0.0.1', 'notfound.public.example': '127.0.0.1', 'nothing.public.example': '127.0.0.1', 'otherdoc.public.example': '127.0.0.1', 'idp.attacker.example': '127.0.0.1' };
  // The public-looking names the operator did not allow (idp.attacker.example) stay refused.
  t0 = await startTestApp(
    { SEXTANT_BCRYPT_COST: '4', SEXTANT_OUTBOUND_ALLOW: 'idp.public.example,notfound.public.example,nothing.public.example,otherdoc.public.example' },
    { outboundLookup: fakeDns(names) },
  );
});
test.after.always(async () => {
  await t0?.stop();
  for (const s of [internal, idp, notFound, otherDoc]) await s?.stop();
});

/** The admin of an organization registered a moment ago. */
const freshAdmin = () => t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
const provider = (type: string, issuer: string) => ({ type, name: type, issuer, client_id: 'attacker-client', client_secret: SECRET });

/** Every issuer the attacker may aim at an internal service, and failures of allowed hosts to compare with. */
const hostileIssuers = () => [
  `http://127.0.0.1:${internal.port}`,
  `http://localhost:${internal.port}`,
  `http://2130706433:${internal.port}`,
  `http://0.0.0.0:${internal.port}`,
  `http://[::ffff:127.0.0.1]:${internal.port}`,
  `http://0177.0.0.1:${internal.port}`,
  `http://[::1]:${internal.port}`,
  `http://idp.attacker.example:${internal.port}`,
  `http://169.254.169.254`,
  idpUrl('/redirect'),
];
const failingAllowedIssuers = () => [`http://nothing.public.example:9`, `http://notfound.public.example:${notFound.port}`, `http://otherdoc.public.example:${otherDoc.port}`];

test.serial('saving or changing a provider whose issuer is internal fetches nothing and answers exactly like any failed discovery', async (t) => {
  const admin = freshAdmin();
  const answers = new Set<string>();
  for (const issuer of [...hostileIssuers(), ...failingAllowedIssuers()]) {
    const res = await call(t0, 'POST', BASE, provider('corp', issuer), admin);
    t.is(res.status, 422, issuer);
    t.deepEqual((res.body.detail as { loc: string[] }[])[0]!.loc, ['body', 'issuer']);
    t.is((res.body.detail as { type: string }[])[0]!.type, 'discovery_failed');
    answers.add(JSON.stringify(res.body));
  }
  t.is(answers.size, 1, [...answers].join('\n'));
  t.false([...answers][0]!.includes('internal-secret'));
  const good = await call(t0, 'POST', BASE, provider('corp', idpUrl('/dead-token')), admin);
  t.is(good.status, 201);
  for (const issuer of hostileIssuers()) {
    const res = await call(t0, 'PATCH', `${BASE}/${good.body['id'] as string}`, { issuer }, admin);
    t.is(res.status, 422);
    t.true(answers.has(JSON.stringify(res.body)));
  }
  t.deepEqual(internal.hits, []);
});

test.serial('a discovery document naming an internal token endpoint never gets the client credentials posted there', async (t) => {
  const admin = freshAdmin();
  const checks = new Set<string>();
  for (const path of ['internal-token', 'dead-token', 'html-token']) {
    const saved = await call(t0, 'POST', BASE, provider(path, idpUrl(`/${path}`)), admin);
    t.is(saved.status, 201, path);
    const tested = await call(t0, 'POST', `${BASE}/${saved.body['id'] as string}/test`, undefined, admin);
    t.is(tested.status, 200);
    t.false(tested.body['ok'] as boolean);
    const [discovered, credentials] = tested.body['checks'] as { ok: boolean | null; problem: string | null }[];
    t.true(discovered!.ok);
    t.is(credentials!.problem, 'token_endpoint_failed');
    checks.add(JSON.stringify(credentials));
  }
  t.is(checks.size, 1, [...checks].join('\n'));
  t.false([...checks][0]!.includes('internal-secret'));
  t.deepEqual(internal.hits, []);
});

/** Starts a sign-in and comes back to the callback with the browser's state, as the provider would send it. */
async function signInThrough(orgId: string, type: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const login = await t0.fetch(`/api/auth/${orgId}/${type}/login`, { redirect: 'manual' });
  const state = new URL(login.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const back = await t0.fetch(`/api/auth/${orgId}/${type}/auth?code=some-code&state=${encodeURIComponent(state)}`, { headers: { cookie }, redirect: 'manual' });
  return { status: back.status, body: (await back.json()) as Record<string, unknown> };
}

test.serial('a sign-in never posts the code to an internal token endpoint nor reads keys from an internal key set', async (t) => {
  const orgId = t0.org();
  const admin = t0.session(t0.user({ orgId, role: 'admin' }));
  for (const path of ['internal-token', 'dead-token', 'html-token', 'internal-jwks']) t.is((await call(t0, 'POST', BASE, provider(path, idpUrl(`/${path}`)), admin)).status, 201);
  const exchange = await Promise.all(['internal-token', 'dead-token', 'html-token'].map((type) => signInThrough(orgId, type)));
  t.deepEqual(exchange.map((r) => r.status), [401, 401, 401]);
  t.is(new Set(exchange.map((r) => JSON.stringify(r.body))).size, 1);
  const keys = await signInThrough(orgId, 'internal-jwks');
  t.is(keys.status, 401);
  t.like(exchange[0]!.body, { code: 'SSO_FAILED', data: { reason: 'token_exchange_failed' } });
  t.like(keys.body, { code: 'SSO_FAILED', data: { reason: 'invalid_id_token' } });
  t.deepEqual(internal.hits, []);
});

test.serial('a provider stored before the guard with an internal issuer is neither fetched by the test call nor by a sign-in', async (t) => {
  const orgId = t0.org();
  const admin = t0.session(t0.user({ orgId, role: 'admin' }));
  const saved = await call(t0, 'POST', BASE, provider('old', idpUrl('/dead-token')), admin);
  const answers = new Set<string>();
  for (const issuer of [...hostileIssuers(), ...failingAllowedIssuers()]) {
    t0.app.services.store.sqlite!.prepare('UPDATE sso_configs SET issuer = ? WHERE id = ?').run(issuer, saved.body['id']);
    const tested = await call(t0, 'POST', `${BASE}/${saved.body['id'] as string}/test`, undefined, admin);
    answers.add(JSON.stringify(tested.body));
    const login = await t0.fetch(`/api/auth/${orgId}/old/login`, { redirect: 'manual' });
    t.is(login.status, 401, issuer);
    answers.add(JSON.stringify(await login.json()));
  }
  t.is(answers.size, 2, [...answers].join('\n'));
  t.deepEqual(internal.hits, []);
});

test('the guarded routes keep their access rules: 401 without a credential, 403 for members, 404 across organizations', async (t) => {
  const admin = freshAdmin();
  const saved = await call(t0, 'POST', BASE, provider('rules', idpUrl('/dead-token')), admin);
  const path = `${BASE}/${saved.body['id'] as string}/test`;
  t.is((await call(t0, 'POST', path)).status, 401);
  t.is((await call(t0, 'POST', path, undefined, t0.session(t0.user({ orgId: t0.org(), role: 'user' })))).status, 403);
  t.is((await call(t0, 'POST', path, undefined, freshAdmin())).status, 404);
  const invalid = await call(t0, 'POST', BASE, { ...provider('rules2', idpUrl('/dead-token')), issuer: 42 }, admin);
  t.is(invalid.status, 422);
  t.true(Array.isArray(invalid.body.detail));
});
