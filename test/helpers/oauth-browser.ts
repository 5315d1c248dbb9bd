// A headless browser for the MCP OAuth flow: an in-memory OAuthClientProvider for the SDK clients,
// and a cookie jar that follows redirects by hand, signs in with a session cookie and consents.
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestApp } from './app.ts';

export const REDIRECT_URL = 'http://127.0.0.1:1/callback';

/** Remembers what the SDK asks it to, like a real client would in its settings. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(readonly redirectUrl = REDIRECT_URL, readonly name = 'Test MCP client') {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  // SDK v2 binds the callback to the authorization server it discovered.
  discovery: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}

/** Cookies by name (paths ignored: one test browser, one server). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  set(name: string, value: string) {
    this.cookies.set(name, value);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\b/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface Step {
  url: URL;
  res: Response;
  html: string;
}

/** Requests `url` with the jar, without following redirects. */
export async function visit(jar: CookieJar, url: URL | string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
  jar.store(res);
  return res;
}

/** Follows redirects until a page (non-3xx) or a URL under `stopAt`; returns where it stopped. */
export async function follow(jar: CookieJar, start: URL | string, stopAt = REDIRECT_URL): Promise<Step> {
  let url = new URL(start);
  for (let i = 0; i < 20; i++) {
    const res = await visit(jar, url);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      if (url.href.startsWith(stopAt)) return { url, res, html: '' };
      continue;
    }
    const html = await res.text();
    const form = autoSubmit(html);
    if (!form) return { url, res, html };
    // A real browser runs the auto-submit script only if the CSP allows its hash.
    if (!/script-src[^;]*'sha256-/.test(res.headers.get('content-security-policy') ?? '')) throw new Error('the CSP blocks the auto-submit script');
    // The provider's self-submitting form (account switch, form_post): a browser posts it at once.
    const posted = await visit(jar, new URL(form.action, url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.body });
    const next = posted.headers.get('location');
    if (!next) return { url, res: posted, html: await posted.text() };
    url = new URL(next, url);
    if (url.href.startsWith(stopAt)) return { url, res: posted, html: '' };
  }
  throw new Error('too many redirects');
}

/** The action and fields of oidc-provider's "Submitting Callback" page, which a browser submits by script. */
function autoSubmit(html: string): { action: string; body: string } | undefined {
  if (!html.includes('<title>Submitting Callback</title>')) return undefined;
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  if (!action) return undefined;
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m): [string, string] => [m[1]!, m[2]!.replace(/&amp;/g, '&')]);
  return { action, body: new URLSearchParams(fields).toString() };
}

/** The CSRF value of the consent page. */
export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  return m[1]!;
}

/** Posts the consent form (Allow or Deny) and follows on to the client's redirect URI. */
export async function submitConsent(jar: CookieJar, page: Step, action: 'confirm' | 'abort' = 'confirm', csrf = csrfOf(page.html), redirectUrl = REDIRECT_URL): Promise<Step> {
  const form = new URL(`${page.url.pathname}/${action}`, page.url);
  const res = await visit(jar, form, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf }).toString() });
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) return { url: form, res, html: await res.text() };
  return follow(jar, new URL(location, form), redirectUrl);
}

/** Signs in (session cookie), consents and returns the callback URL (with code, state and iss). */
export async function authorize(jar: CookieJar, authorizationUrl: URL, redirectUrl = REDIRECT_URL): Promise<URL> {
  const consent = await follow(jar, authorizationUrl, redirectUrl);
  if (consent.res.status !== 200) throw new Error(`expected the consent page, got ${consent.res.status} at ${consent.url.href}: ${consent.html.slice(0, 300)}`);
  // It carries the person's address and a CSRF token: never cached.
  if (consent.res.headers.get('cache-control') !== 'no-store') throw new Error(`the consent page may be cached: Cache-Control ${consent.res.headers.get('cache-control')}`);
  const back = await submitConsent(jar, consent, 'confirm', csrfOf(consent.html), redirectUrl);
  if (!back.url.searchParams.get('code')) throw new Error(`no code: ${back.url.href} ${back.html.slice(0, 300)}`);
  return back.url;
}

/** Posts a form to the token endpoint and returns status and JSON. */
export async function tokenRequest(baseUrl: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Resolves when `p` fails with `kind` (the SDK's "needs authorization"); anything else fails the test. */
export const expectUnauthorized = (p: Promise<unknown>, kind: new (...a: never[]) => Error) =>
  p.then(
    () => {
      throw new Error('connected without authorization');
    },
    (err: unknown) => {
      if (!(err instanceof kind)) throw err;
    },
  );

/** Connects an SDK v1 client through the whole OAuth dance with a signed-in browser. */
export async function connectV1(app: TestApp, sessionJwt: string, provider = new MemoryOAuthProvider()) {
  const url = new URL(`${app.url}/ai/mcp`);
  const jar = new CookieJar();
  jar.set('sextant_session', sessionJwt);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expectUnauthorized(new Client({ name: 'test', version: '1.0.0' }).connect(first), UnauthorizedError);
  const callback = await authorize(jar, provider.authorizationUrl!);
  await first.finishAuth(callback.searchParams.get('code')!);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider, jar, url };
}
