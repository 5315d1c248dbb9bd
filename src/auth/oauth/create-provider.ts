// The OAuth 2.1 authorization server for MCP clients: oidc-provider, configured so that every token
// is bound to the `/ai/mcp` resource, PKCE (S256) is required, refresh tokens rotate and outlive the
// browser session, and redirect URIs follow the MCP rules. See notes/libraries.md "oidc-provider 9.x".
import escapeHtml from 'escape-html';
import type Provider from 'oidc-provider';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from '../../log.ts';
import { MCP_SCOPE } from './account.ts';
import { loadOrCreateSigningKey } from './signing-key.ts';
import { storeAdapterFactory } from './store-adapter.ts';
import { isPublicHttpsUrl } from './public-host.ts';
import type { SecretBox } from '../../security/index.ts';
import type { Executor } from '../../store/index.ts';
import type { Outbound } from '../../outbound/index.ts';

export const OAUTH_PATH = '/oauth';
const DAY = 24 * 3600;
/** Consent pages, like the provider's interactions, live 10 minutes (interface part 8). */
export const INTERACTION_TTL_SECONDS = 600;

/** What the gateway needs of the authorization server. */
export interface OAuthServer {
  /**
   * The provider, built on first use: oidc-provider (~14 MB) and the signing key (generated on a
   * fresh data directory) are loaded only by a gateway that serves OAuth or MCP bearer tokens.
   */
  provider(): Promise<Provider>;
  issuer: string;
  /** The canonical URI of the MCP endpoint: the only resource tokens are issued for. */
  resource: string;
}

export interface OAuthDeps {
  config: Config;
  clock: Clock;
  /** The asynchronous store, where the provider's models and the signing key are kept. */
  executor: Executor;
  secretBox: SecretBox;
  log: Logger;
  /**
   * The guarded outbound client, for what the provider fetches at a stranger's word (client metadata
   * documents, a registered client's jwks_uri); without it, oidc-provider's own special-use address check.
   */
  outbound?: Pick<Outbound, 'fetch'>;
}

/** Describes the provider (built on first use, not mounted) with its storage and persisted signing key. */
export function createOAuthServer(deps: OAuthDeps): OAuthServer {
  const issuer = `${deps.config.baseUrl}${OAUTH_PATH}`;
  const resource = `${deps.config.baseUrl}/ai/mcp`;
  let built: Promise<Provider> | undefined;
  const provider = () =>
    (built ??= buildProvider(deps, issuer, resource).catch((err: unknown) => {
      built = undefined;
      throw err;
    }));
  return { provider, issuer, resource };
}

/** The authorization server's features: registration, client metadata documents, resource indicators. */
function features(errors: typeof import('oidc-provider').errors, resource: string): Configuration['features'] {
  const resourceServer = { scope: MCP_SCOPE, audience: resource, accessTokenTTL: 3600, accessTokenFormat: 'opaque' as const };
  return {
  devInteractions: { enabled: false },
  dPoP: { enabled: false },
  // A client revokes only its own tokens.
  revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
  registration: { enabled: true },
  // Client ID Metadata Documents, which the 2026-07-28 MCP revision prefers to registration.
  clientIdMetadataDocument: {
    enabled: true,
    ack: 'draft-02',
    allowFetch: (_ctx, clientId) => isPublicHttpsUrl(clientId),
    allowClient: (_ctx, client) => (client.redirectUris ?? []).every((uri) => redirectAllowed(uri, client.applicationType === 'native')),
  },
  resourceIndicators: {
    enabled: true,
    defaultResource: () => resource,
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx, indicator) => {
      if (sameResource(indicator, resource)) return resourceServer;
      throw new errors.InvalidTarget();
    },
  },
};
}

async function buildProvider({ config, clock, executor, secretBox, log, outbound }: OAuthDeps, issuer: string, resource: string): Promise<Provider> {
  const { default: Provider, errors } = await import('oidc-provider');
  const configuration: Configuration = {
    adapter: storeAdapterFactory({ store: executor, clock, alreadyConsumed: (model) => alreadyConsumed(errors, model) }),
    jwks: { keys: [await loadOrCreateSigningKey(executor, clock, secretBox)] },
    cookies: { keys: config.secrets.cookieKeys },
    scopes: ['openid', 'offline_access', MCP_SCOPE],
    claims: { openid: ['sub'] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    // OAuth 2.1: the authorization code is the only response type; implicit and hybrid flows are gone.
    responseTypes: ['code'],
    pkce: { required: () => true },
    ...(outbound ? { fetch: outbound.fetch } : {}),
    features: features(errors, resource),
    extraClientMetadata: {
      properties: ['urn:sextant:redirect-policy'],
      validator: (ctx, _key, _value, metadata) => {
        const violation = flowViolation(metadata) ?? redirectPolicyViolation(ctx, metadata);
        if (violation) throw new errors.InvalidClientMetadata(violation);
      },
    },
    // MCP clients rarely ask for offline_access, yet they need refresh tokens that outlive the browser.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: INTERACTION_TTL_SECONDS,
      RefreshToken: 365 * DAY,
      Grant: 365 * DAY,
      Session: 14 * DAY,
      IdToken: 3600,
    },
    interactions: { url: (_ctx, interaction) => `${config.baseUrl}/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><h1>${escapeHtml(out.error)}</h1><p>${escapeHtml(String(out.error_description ?? ''))}</p>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = config.trustProxy;
  provider.on('server_error', (_ctx, err) => log.error({ err }, 'oauth server error'));
  return provider;
}

/**
 * The answer to a request that lost a race to consume a code, refresh token or pushed request: the
 * one the provider gives a second use of it (`AuthorizationCode` -> "authorization code already consumed").
 */
export function alreadyConsumed(errors: typeof import('oidc-provider').errors, model: string): Error {
  if (model === 'PushedAuthorizationRequest') return new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used');
  return new errors.InvalidGrant(`${model.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} already consumed`);
}

/** Equal resource URIs, ignoring a fragment and one trailing slash (as the SDK compares them). */
export function sameResource(a: string, b: string): boolean {
  const norm = (s: string) => s.split('#')[0]!.replace(/\/$/, '');
  return norm(a) === norm(b);
}

/**
 * MCP redirect rules, stricter than the provider's: https, or http on a loopback address, or a
 * private-use scheme (`cursor://...`) for native apps. Runs on registration (when `ctx` is set).
 */
function redirectPolicyViolation(ctx: KoaContextWithOIDC | undefined, metadata: ClientMetadata): string | undefined {
  if (!ctx) return undefined;
  const bad = (metadata.redirect_uris ?? []).find((uri) => !redirectAllowed(uri, metadata.application_type === 'native'));
  return bad === undefined ? undefined : `redirect_uris must use https, http on a loopback address, or a private-use scheme for native apps: ${bad}`;
}

/** Grant types a client may register: the code flow and its refresh; nothing without a user or a code. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/**
 * OAuth 2.1 flows only, checked on the metadata as sent: the provider would quietly drop a lone
 * `implicit` grant (and register the client anyway) where the client must learn it is not offered.
 * Also for client metadata documents (no `ctx`); stored clients hold the provider's normalized
 * metadata, which passes.
 */
function flowViolation(metadata: ClientMetadata): string | undefined {
  const grants: unknown = metadata.grant_types;
  const responses: unknown = metadata.response_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => !GRANT_TYPES.has(g as string)))) {
    return 'grant_types may only hold authorization_code and refresh_token (OAuth 2.1: the authorization code flow with PKCE)';
  }
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    return 'response_types may only hold code (OAuth 2.1: no implicit or hybrid flows)';
  }
  return undefined;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The redirect URI rule on its own, for tests and the consent page. */
export function redirectAllowed(uri: string, native: boolean): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  if (['javascript:', 'data:', 'file:', 'about:', 'blob:', 'vbscript:'].includes(url.protocol)) return false;
  return native && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol);
}
