// Fetching an issuer's OIDC discovery document with care: the issuer is typed by an admin (of any
// organization, and anyone may register one), so the fetch goes through the guarded outbound client
// (no internal address, no redirect), gives up after a timeout and reads a bounded body. Whatever went
// wrong, the admin reads one answer: an unreachable, refused, failing or wrong document look alike,
// and nothing fetched is repeated; the reason is for the log only.
import type { Logger } from '../../log.ts';
import type { OutboundFetch } from '../../outbound/index.ts';

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 256 * 1024;

/** What is wrong with an issuer, as a stable code: a malformed URL, or no usable discovery document behind it. */
export type DiscoveryProblem = 'invalid_issuer_url' | 'discovery_failed';

/** Why discovery failed, for the log: never shown to the admin, as it tells internal hosts and ports apart. */
export type DiscoveryReason = 'unreachable' | 'http_status' | 'not_json' | 'issuer_mismatch' | 'missing_endpoints';

/** The one thing an admin is told when the document could not be used. */
export const DISCOVERY_FAILED_DETAIL = 'The issuer could not be reached, is not allowed, or did not answer with an OpenID discovery document describing this issuer and its endpoints';

/** What an OpenID provider's discovery document must name for the code flow. */
export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export type DiscoveryResult = { ok: true; meta: OidcMetadata } | { ok: false; problem: DiscoveryProblem; detail: string; reason?: DiscoveryReason; cause?: unknown };

const failed = (reason: DiscoveryReason, cause?: unknown): DiscoveryResult => ({ ok: false, problem: 'discovery_failed', detail: DISCOVERY_FAILED_DETAIL, reason, cause });

/** What an admin is told for an issuer that is not one (the form says the same before sending). */
export const INVALID_ISSUER_DETAIL = 'Enter the issuer as an https address, like https://login.example.com (no user, query or #fragment)';

/**
 * True for an absolute http(s) URL without credentials, query or fragment. OpenID Connect issuers are
 * https, and the form says so; plain http stays allowed for an identity provider on a private network
 * (which SEXTANT_OUTBOUND_ALLOW must name anyway), so the scheme alone tells nothing about reachability.
 */
export function isAcceptableIssuer(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  const scheme = url.protocol === 'https:' || url.protocol === 'http:';
  return scheme && !url.username && !url.password && !url.search && !url.hash;
}

/** Fetches (through the guarded `fetch`) and checks the discovery document of `issuer`; never throws. */
export async function fetchDiscovery(fetch: OutboundFetch, issuer: string): Promise<DiscoveryResult> {
  if (!isAcceptableIssuer(issuer)) return { ok: false, problem: 'invalid_issuer_url', detail: INVALID_ISSUER_DETAIL };
  let text: string;
  try {
    const res = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    if (res.status !== 200) {
      await res.body?.cancel();
      return failed('http_status', new Error(`HTTP ${res.status}`));
    }
    text = await readBounded(res);
  } catch (err) {
    return failed('unreachable', err);
  }
  return checkDocument(issuer, text);
}

/** Writes why discovery failed to the log, where the operator (not the admin) reads it. */
export function logDiscoveryFailure(log: Logger, issuer: string, found: DiscoveryResult): void {
  if (!found.ok && found.reason) log.warn({ issuer, reason: found.reason, err: found.cause }, 'OIDC discovery failed');
}

function checkDocument(issuer: string, text: string): DiscoveryResult {
  let meta: Partial<OidcMetadata>;
  try {
    meta = JSON.parse(text) as Partial<OidcMetadata>;
  } catch {
    return failed('not_json');
  }
  if (typeof meta !== 'object' || meta === null) return failed('not_json');
  if (meta.issuer !== issuer) return failed('issuer_mismatch');
  const missing = (['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const).filter((k) => typeof meta[k] !== 'string' || !isHttpUrl(meta[k]));
  if (missing.length > 0) return failed('missing_endpoints', new Error(`missing or invalid: ${missing.join(', ')}`));
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
