// Two replicas of the authorization server (one provider per executor, on one database) redeeming the
// same authorization code, or refresh token, at once: the provider reads `consumed` before it consumes,
// so the test holds both requests until both have read it unconsumed, then lets them consume one after
// the other. Exactly one gets tokens; the other gets invalid_grant, as a second use would.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { sql } from 'kysely';
import type Provider from 'oidc-provider';
import { MCP_SCOPE } from '../../../src/auth/oauth/account.ts';
import { alreadyConsumed, createOAuthServer } from '../../../src/auth/oauth/create-provider.ts';
import { FakeClock } from '../../../src/clock.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { createSecretBox } from '../../../src/security/index.ts';
import { compile, type Executor, type Query } from '../../../src/store/executor.ts';
import { dialectTest, type DialectCase } from '../../helpers/executors.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sextant-oauth-race-'));
test.after.always(() => rmSync(dataDir, { recursive: true, force: true }));
const config = loadConfig({
  SEXTANT_DATA_DIR: dataDir,
  SEXTANT_PORT: '1',
  SEXTANT_JWT_SECRET: 'test-jwt-secret-test-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'test-cookie-key',
});

/** An executor that calls `before` and `after` around each statement (run, one, all), given its SQL and parameters. */
function observed(x: Executor, hooks: { before?: (sql: string, params: readonly unknown[]) => Promise<void>; after?: (sql: string, params: readonly unknown[]) => void }): Executor {
  const around = async <T>(q: Query, go: () => Promise<T>): Promise<T> => {
    const c = compile(x.db, q);
    await hooks.before?.(c.sql, c.parameters);
    const result = await go();
    hooks.after?.(c.sql, c.parameters);
    return result;
  };
  return {
    db: x.db,
    one: (q) => around(q, () => x.one(q)),
    all: (q) => around(q, () => x.all(q)),
    run: (q) => around(q, () => x.run(q)),
    batch: (qs, options) => x.batch(qs, options),
  };
}

const consumes = (sql: string) => /^update "oauth_models" set "consumed_at"/i.test(sql);
const reads = (sql: string, params: readonly unknown[], model: string) => /^select/i.test(sql) && params.includes(model);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function serve(t: ExecutionContext, store: Executor): Promise<{ provider: Provider; url: string }> {
  const server = createOAuthServer({ config, clock: new FakeClock(), executor: store, secretBox: createSecretBox(Buffer.alloc(32, 7).toString('base64')), log: createLogger('silent') });
  const provider = await server.provider();
  const http: Server = createServer(provider.callback());
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  t.teardown(() => new Promise<void>((r) => http.close(() => r())));
  return { provider, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

const REDIRECT = 'http://127.0.0.1:1/callback';
const VERIFIER = 'a'.repeat(43);

interface Issued {
  clientId: string;
  code: string;
  refreshToken: string;
}

/** A registered public client with a grant for the MCP resource, and a code (PKCE) and a refresh token issued from it. */
async function issue(store: Executor, provider: Provider, resource: string): Promise<Issued> {
  const clientId = 'race-client';
  await store.run(sql`INSERT INTO oauth_models (model, id, payload, client_id, created_at) VALUES ('Client', ${clientId}, ${JSON.stringify({
    client_id: clientId,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  })}, ${clientId}, 0)`);
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error('the registered client was not found');
  const grant = new provider.Grant({ accountId: 'u1:o1', clientId });
  grant.addResourceScope(resource, MCP_SCOPE);
  const grantId = await grant.save();
  const issued = { accountId: 'u1:o1', client, grantId, gty: 'authorization_code', resource, scope: MCP_SCOPE };
  const codeChallenge = createHash('sha256').update(VERIFIER).digest('base64url');
  const code = await new provider.AuthorizationCode({ ...issued, redirectUri: REDIRECT, codeChallenge, codeChallengeMethod: 'S256' }).save();
  const refreshToken = await new provider.RefreshToken(issued).save();
  return { clientId, code, refreshToken };
}

const tokenRequest = (url: string, params: Record<string, string>) =>
  fetch(`${url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error?: string; access_token?: string; refresh_token?: string },
  }));

const redeemCode = (url: string, i: Issued) => tokenRequest(url, { grant_type: 'authorization_code', code: i.code, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: i.clientId });
const refresh = (url: string, i: Issued, token = i.refreshToken) => tokenRequest(url, { grant_type: 'refresh_token', refresh_token: token, client_id: i.clientId });

/**
 * Two replicas of one database, the second holding its consume until the first has consumed, the
 * first holding its own until the second has read the `model` row: both have read it unconsumed.
 */
async function racingReplicas(t: ExecutionContext, { x, other }: DialectCase, model: string) {
  const secondRead = deferred();
  const firstConsumed = deferred();
  const first = await serve(t, observed(x, { before: async (q) => (consumes(q) ? secondRead.promise : undefined), after: (q) => consumes(q) && firstConsumed.resolve() }));
  const second = await serve(t, observed(other, { before: async (q) => (consumes(q) ? firstConsumed.promise : undefined), after: (q, p) => reads(q, p, model) && secondRead.resolve() }));
  return { first, second, issued: await issue(x, first.provider, `${config.baseUrl}/ai/mcp`) };
}

dialectTest('two replicas redeeming one authorization code at once: one gets tokens, the other invalid_grant', async (t, c) => {
  const { first, second, issued } = await racingReplicas(t, c, 'AuthorizationCode');
  const [won, lost] = await Promise.all([redeemCode(first.url, issued), redeemCode(second.url, issued)]);
  t.is(won.status, 200);
  t.truthy(won.body.access_token);
  t.is(lost.status, 400);
  t.is(lost.body.error, 'invalid_grant');
});

dialectTest('two replicas redeeming one refresh token at once: one gets new tokens, the other invalid_grant', async (t, c) => {
  const { first, second, issued } = await racingReplicas(t, c, 'RefreshToken');
  const [won, lost] = await Promise.all([refresh(first.url, issued), refresh(second.url, issued)]);
  t.is(won.status, 200);
  t.truthy(won.body.refresh_token);
  t.is(lost.status, 400);
  t.is(lost.body.error, 'invalid_grant');
  t.is((await refresh(second.url, issued, won.body.refresh_token)).status, 200, 'the winner’s rotated token works on the other replica');
});

test('a lost race is answered as the provider answers a second use of the same artifact', async (t) => {
  const { errors } = await import('oidc-provider');
  t.like(alreadyConsumed(errors, 'AuthorizationCode'), { error: 'invalid_grant', error_detail: 'authorization code already consumed' });
  t.like(alreadyConsumed(errors, 'RefreshToken'), { error: 'invalid_grant', error_detail: 'refresh token already consumed' });
  t.like(alreadyConsumed(errors, 'PushedAuthorizationRequest'), { error: 'invalid_request_uri' });
});
