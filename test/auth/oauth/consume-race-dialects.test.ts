// Two replicas of the authorization server (one provider per executor, on one database) redeeming the
// same refresh token at once: the provider reads `consumed` before it consumes, so the test holds both
// requests until both have read the token unconsumed, then lets them consume one after the other.
// Exactly one gets new tokens; the other gets invalid_grant, as a second use would.
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
import { dialectTest } from '../../helpers/executors.ts';

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
const readsRefreshToken = (sql: string, params: readonly unknown[]) => /^select/i.test(sql) && params.includes('RefreshToken');

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

/** A registered public client with a grant for the MCP resource, and a refresh token issued from it. */
async function issueRefreshToken(store: Executor, provider: Provider, resource: string): Promise<{ clientId: string; token: string }> {
  const clientId = 'race-client';
  await store.run(sql`INSERT INTO oauth_models (model, id, payload, client_id, created_at) VALUES ('Client', ${clientId}, ${JSON.stringify({
    client_id: clientId,
    redirect_uris: ['http://127.0.0.1:1/callback'],
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
  const token = await new provider.RefreshToken({ accountId: 'u1:o1', client, grantId, gty: 'authorization_code', resource, scope: MCP_SCOPE }).save();
  return { clientId, token };
}

const refresh = (url: string, clientId: string, token: string) =>
  fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string; refresh_token?: string } }));

dialectTest('two replicas redeeming one refresh token at once: one gets new tokens, the other invalid_grant', async (t, { x, other }) => {
  const secondRead = deferred();
  const firstConsumed = deferred();
  const first = await serve(t, observed(x, { before: async (sql) => (consumes(sql) ? secondRead.promise : undefined), after: (sql) => consumes(sql) && firstConsumed.resolve() }));
  const second = await serve(t, observed(other, { before: async (sql) => (consumes(sql) ? firstConsumed.promise : undefined), after: (sql, p) => readsRefreshToken(sql, p) && secondRead.resolve() }));
  const resource = `${config.baseUrl}/ai/mcp`;
  const { clientId, token } = await issueRefreshToken(x, first.provider, resource);
  const [won, lost] = await Promise.all([refresh(first.url, clientId, token), refresh(second.url, clientId, token)]);
  t.is(won.status, 200);
  t.truthy(won.body.refresh_token);
  t.is(lost.status, 400);
  t.is(lost.body.error, 'invalid_grant');
  t.is((await refresh(second.url, clientId, won.body.refresh_token!)).status, 200, 'the winner’s rotated token works on the other replica');
});

test('a lost race is answered as the provider answers a second use of the same artifact', async (t) => {
  const { errors } = await import('oidc-provider');
  t.like(alreadyConsumed(errors, 'AuthorizationCode'), { error: 'invalid_grant', error_detail: 'authorization code already consumed' });
  t.like(alreadyConsumed(errors, 'RefreshToken'), { error: 'invalid_grant', error_detail: 'refresh token already consumed' });
  t.like(alreadyConsumed(errors, 'PushedAuthorizationRequest'), { error: 'invalid_request_uri' });
});
