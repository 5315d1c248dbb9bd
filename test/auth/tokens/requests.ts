// Request helpers shared by the token tests.
import type { TestApp } from '../../helpers/app.ts';

export interface Caller {
  /** A value for the API-KEY header. */
  key?: string;
  /** A session JWT, sent as the session cookie. */
  session?: string;
  bearer?: string;
  /** A client address, sent as X-Forwarded-For (read when the app trusts its proxy). */
  ip?: string;
}

const BROWSER_CSRF = 'test-csrf-token-0123456789';

/** Calls a REST route with a credential and an optional JSON body; returns status and parsed body. */
export async function call(
  t0: TestApp,
  method: string,
  path: string,
  who: Caller = {},
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> & { detail?: unknown; code?: string } }> {
  const headers: Record<string, string> = {};
  if (who.key) headers['API-KEY'] = who.key;
  // A browser session: the cookie, and the CSRF pair the web client sends with it.
  if (who.session) {
    headers['cookie'] = `sextant_session=${who.session}; sextant_csrf=${BROWSER_CSRF}`;
    headers['X-CSRF-Token'] = BROWSER_CSRF;
  }
  if (who.bearer) headers['authorization'] = `Bearer ${who.bearer}`;
  if (who.ip) headers['x-forwarded-for'] = who.ip;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t0.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
};

/** Sends an MCP initialize request to /ai/mcp with the given X-API-KEY (and optional query string). */
export async function mcpInitialize(t0: TestApp, apiKey: string | undefined, query = ''): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (apiKey) headers['X-API-KEY'] = apiKey;
  const res = await t0.fetch(`/ai/mcp${query}`, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) });
  return { status: res.status, text: await res.text() };
}

export const DAY = 24 * 3600 * 1000;
