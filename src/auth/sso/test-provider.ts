// "Test" for an SSO provider: reports what would make sign-in fail, without signing anyone in.
// Client credentials are checked by redeeming a made-up code: a known client gets `invalid_grant`,
// a wrong id or secret gets `invalid_client`.
import type { Principal } from '../principal.ts';
import { fetchDiscovery } from './discovery.ts';
import { mustFind, type ProviderDeps } from './manage-providers.ts';

export interface ProviderTestReport {
  ok: boolean;
  checks: { name: 'discovery' | 'client_credentials'; ok: boolean | null; problem: string | null; detail: string }[];
}

/** Checks discovery and, where the provider lets us, the client credentials. */
export async function testSsoProvider(deps: ProviderDeps, admin: Principal, id: string): Promise<ProviderTestReport> {
  const row = await mustFind(deps, admin, id);
  const found = await fetchDiscovery(row.issuer);
  if (!found.ok) {
    return { ok: false, checks: [{ name: 'discovery', ok: false, problem: found.problem, detail: found.detail }] };
  }
  const discovery = { name: 'discovery' as const, ok: true, problem: null, detail: 'The discovery document names this issuer and its endpoints' };
  const secret = row.client_secret ? deps.secretBox.open(row.client_secret) : undefined;
  const creds = await probeClient(found.meta.token_endpoint, row.client_id, secret);
  return { ok: creds.ok !== false, checks: [discovery, { name: 'client_credentials', ...creds }] };
}

async function probeClient(tokenEndpoint: string, clientId: string, secret: string | undefined): Promise<{ ok: boolean | null; problem: string | null; detail: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'sextant-connection-test', redirect_uri: 'https://invalid.test/' });
  if (secret) headers['authorization'] = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  else form.set('client_id', clientId);
  try {
    const res = await fetch(tokenEndpoint, { method: 'POST', headers, body: form.toString(), redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    if (body.error === 'invalid_client' || body.error === 'unauthorized_client') {
      return { ok: false, problem: 'bad_client_credentials', detail: 'The provider refused the client id or secret' };
    }
    if (body.error === 'invalid_grant') return { ok: true, problem: null, detail: 'The provider accepted the client credentials' };
    return { ok: null, problem: null, detail: 'The provider did not say whether the client credentials are right' };
  } catch {
    return { ok: false, problem: 'token_endpoint_unreachable', detail: 'The token endpoint could not be reached' };
  }
}
