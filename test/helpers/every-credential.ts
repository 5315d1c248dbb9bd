// Every kind of credential a user can hold in an organization, and which of them still work: a session
// JWT, API, CLI and MCP tokens, and an MCP client's OAuth grant (its access and its refresh token),
// the grant obtained through the real consent flow. For tests of what ends access (issue 33).
import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../../src/auth/index.ts';
import type { TestApp } from './app.ts';
import { authorize, CookieJar, REDIRECT_URL, tokenRequest } from './oauth-browser.ts';

export interface HeldCredentials {
  session: string;
  api: string;
  cli: string;
  mcp: string;
  oauth: { clientId: string; access: string; refresh: string };
}

export type CredentialKind = 'session' | 'api' | 'cli' | 'mcp' | 'oauth_access' | 'oauth_refresh';

/** An MCP client's grant for the user in `orgId`, through registration, consent and code redemption. */
async function oauthGrant(app: TestApp, session: string): Promise<HeldCredentials['oauth']> {
  const reg = await app.fetch('/oauth/reg', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Credential test', redirect_uris: [REDIRECT_URL], application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  });
  const clientId = ((await reg.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${app.url}/oauth/auth`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URL,
    scope: 'mcp:tools',
    state: 'st4te',
    code_challenge_method: 'S256',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    resource: `${app.url}/ai/mcp`,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const jar = new CookieJar();
  jar.set('sextant_session', session);
  const code = (await authorize(jar, url)).searchParams.get('code')!;
  const tokens = await tokenRequest(app.url, { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT_URL, code_verifier: verifier, resource: `${app.url}/ai/mcp` });
  if (tokens.status !== 200 || typeof tokens.body['refresh_token'] !== 'string') throw new Error(`no OAuth tokens: ${JSON.stringify(tokens.body)}`);
  return { clientId, access: tokens.body['access_token'] as string, refresh: tokens.body['refresh_token'] as string };
}

/** One credential of every kind for the user acting in `orgId` (their first organization by default). */
export async function everyCredential(app: TestApp, user: UserRow, orgId?: string): Promise<HeldCredentials> {
  const session = app.session(user, orgId);
  return { session, api: app.token(user, 'api', orgId), cli: app.token(user, 'cli', orgId), mcp: app.token(user, 'mcp', orgId), oauth: await oauthGrant(app, app.session(user, orgId)) };
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } });

async function mcpStatus(app: TestApp, header: Record<string, string>): Promise<number> {
  const res = await app.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...header }, body: INITIALIZE });
  await res.arrayBuffer();
  return res.status;
}

async function meStatus(app: TestApp, header: Record<string, string>): Promise<number> {
  const res = await app.fetch('/api/auth/me', { headers: header });
  await res.arrayBuffer();
  return res.status;
}

/**
 * The kinds that still work, each tried on the next request. A refresh that works rotates the refresh
 * token (kept in `held`, so the grant can be tried again).
 */
export async function workingCredentials(app: TestApp, held: HeldCredentials): Promise<CredentialKind[]> {
  const works: CredentialKind[] = [];
  if ((await meStatus(app, { authorization: `Bearer ${held.session}` })) === 200) works.push('session');
  if ((await meStatus(app, { 'API-KEY': held.api })) === 200) works.push('api');
  if ((await meStatus(app, { 'API-KEY': held.cli })) === 200) works.push('cli');
  if ((await mcpStatus(app, { 'X-API-KEY': held.mcp })) === 200) works.push('mcp');
  if ((await mcpStatus(app, { authorization: `Bearer ${held.oauth.access}` })) === 200) works.push('oauth_access');
  const refreshed = await tokenRequest(app.url, { grant_type: 'refresh_token', refresh_token: held.oauth.refresh, client_id: held.oauth.clientId, resource: `${app.url}/ai/mcp` });
  if (refreshed.status === 200) {
    works.push('oauth_refresh');
    held.oauth.refresh = refreshed.body['refresh_token'] as string;
  }
  return works;
}

export const ALL_KINDS: CredentialKind[] = ['session', 'api', 'cli', 'mcp', 'oauth_access', 'oauth_refresh'];
