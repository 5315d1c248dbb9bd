// Fetching an issuer's OIDC discovery document with care: the issuer is typed by an admin, so the
// fetch is limited to http(s), gives up after a timeout, follows no redirect and reads a bounded body.

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 256 * 1024;

/** What is wrong with an issuer, as a stable code an admin can act on. */
export type DiscoveryProblem = 'invalid_issuer_url' | 'unreachable' | 'discovery_failed' | 'bad_discovery_document' | 'issuer_mismatch' | 'missing_endpoints';

/** What an OpenID provider's discovery document must name for the code flow. */
export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export type DiscoveryResult = { ok: true; meta: OidcMetadata } | { ok: false; problem: DiscoveryProblem; detail: string };

/** True for an absolute http(s) URL without credentials, query or fragment. */
export function isAcceptableIssuer(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && !url.search && !url.hash;
}

/** Fetches and checks the discovery document of `issuer`; never throws. */
export async function fetchDiscovery(issuer: string): Promise<DiscoveryResult> {
  if (!isAcceptableIssuer(issuer)) return { ok: false, problem: 'invalid_issuer_url', detail: 'The issuer must be an http(s) URL without credentials, query or fragment' };
  let text: string;
  try {
    const res = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    if (res.status !== 200) {
      await res.body?.cancel();
      return { ok: false, problem: 'discovery_failed', detail: `The discovery document answered HTTP ${res.status}` };
    }
    text = await readBounded(res);
  } catch {
    return { ok: false, problem: 'unreachable', detail: 'The issuer could not be reached (connection refused, timeout or too large an answer)' };
  }
  return checkDocument(issuer, text);
}

function checkDocument(issuer: string, text: string): DiscoveryResult {
  let meta: Partial<OidcMetadata>;
  try {
    meta = JSON.parse(text) as Partial<OidcMetadata>;
  } catch {
    return { ok: false, problem: 'bad_discovery_document', detail: 'The discovery document is not JSON' };
  }
  if (typeof meta !== 'object' || meta === null) return { ok: false, problem: 'bad_discovery_document', detail: 'The discovery document is not an object' };
  if (meta.issuer !== issuer) return { ok: false, problem: 'issuer_mismatch', detail: `The document names the issuer ${String(meta.issuer).slice(0, 200)}` };
  const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((k) => typeof meta[k] !== 'string' || !isHttpUrl(meta[k]));
  if (missing.length > 0) return { ok: false, problem: 'missing_endpoints', detail: `Missing or invalid: ${missing.join(', ')}` };
  return { ok: true, meta: meta as OidcMetadata };
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

async function readBounded(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw new Error('discovery document too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
