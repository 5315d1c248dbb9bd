// "Test" for an SSO provider: reports what would make sign-in fail, without signing anyone in.
// Client credentials are checked by redeeming a made-up code: a known client gets `invalid_grant`,
// a wrong id or secret gets `invalid_client`. Every request goes through the guarded outbound client,
// and a token endpoint that is refused, unreachable or answers something other than OAuth reads as
// one problem: the report never tells internal hosts and ports apart, nor repeats what they answered.
import type { Principal } from '../principal.ts';
import { fetchDiscovery, logDiscoveryFailure } from './discovery.ts';
import { mustFind, type ProviderDeps } from './manage-providers.ts';

export interface ProviderTestReport {
  ok: boolean;
  checks: { name: 'discovery' | 'client_credentials'; ok: boolean | null; problem: string | null; detail: string }[];
}

type CredentialCheck = { ok: boolean | null; problem: string | null; detail: string };

const TOKEN_ENDPOINT_FAILED: CredentialCheck = { ok: false, problem: 'token_endpoint_failed', detail: 'The token endpoint could not be reached, is not allowed, or did not answer as an OAuth token endpoint' };

/** Checks discovery and, where the provider lets us, the client credentials. */
export async function testSsoProvider(deps: ProviderDeps, admin: Principal, id: string): Promise<ProviderTestReport> {
  const row = await mustFind(deps, admin, id);
  const found = await fetchDiscovery(deps.outbound.fetch, row.issuer);
  logDiscoveryFailure(deps.log, row.issuer, found);
  if (!found.ok) {
    return { ok: false, checks: [{ name: 'discovery', ok: false, problem: found.problem, detail: found.detail }] };
  }
  const discovery = { name: 'discovery' as const, ok: true, problem: null, detail: 'The discovery document names this issuer and its endpoints' };
  const secret = row.client_secret ? deps.secretBox.open(row.client_secret) : undefined;
  const creds = await probeClient(deps, found.meta.token_endpoint, row.client_id, secret);
  return { ok: creds.ok !== false, checks: [discovery, { name: 'client_credentials', ...creds }] };
}

async function probeClient(deps: ProviderDeps, tokenEndpoint: string, clientId: string, secret: string | undefined): Promise<CredentialCheck> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'sextant-connection-test', redirect_uri: 'https://invalid.test/' });
  if (secret) headers['authorization'] = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  else form.set('client_id', clientId);
  let answer: { status: number; error: unknown };
  try {
    const res = await deps.outbound.fetch(tokenEndpoint, { method: 'POST', headers, body: form.toString(), redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    answer = { status: res.status, error: ((await res.json().catch(() => ({}))) as { error?: unknown }).error };
  } catch (err) {
    deps.log.warn({ err, token_endpoint: tokenEndpoint }, 'SSO provider test: the token endpoint failed');
    return TOKEN_ENDPOINT_FAILED;
  }
  if (answer.error === 'invalid_client' || answer.error === 'unauthorized_client') {
    return { ok: false, problem: 'bad_client_credentials', detail: 'The provider refused the client id or secret' };
  }
  if (answer.error === 'invalid_grant') return { ok: true, problem: null, detail: 'The provider accepted the client credentials' };
  // An OAuth error answer (RFC 6749 §5.2: 400 or 401 with an `error` code) that does not say.
  if ((answer.status === 400 || answer.status === 401) && typeof answer.error === 'string') {
    return { ok: null, problem: null, detail: 'The provider did not say whether the client credentials are right' };
  }
  deps.log.warn({ token_endpoint: tokenEndpoint, status: answer.status }, 'SSO provider test: the token endpoint did not answer as OAuth');
  return TOKEN_ENDPOINT_FAILED;
}
