// Mounts the authorization server at /oauth, with the discovery aliases MCP clients look for and a
// rate limit on open client registration. Must come after the MCP endpoint and before the router:
// matched provider routes end the response, everything else falls through.
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import mount from 'koa-mount';
import { consumeQuota } from '../../auth/credentials/rate-limit.ts';
import { RateLimited } from '../../errors.ts';
import { writeError } from '../error-handler.ts';
import type { Services } from '../../compose/services.ts';
import { MCP_SCOPE } from '../../auth/oauth/account.ts';
import { OAUTH_PATH } from '../../auth/oauth/create-provider.ts';

const DISCOVERY = `${OAUTH_PATH}/.well-known/openid-configuration`;

/** RFC 8414 and OIDC path-insertion forms of the issuer's metadata, all served by the provider. */
const METADATA_ALIASES = new Set([
  `/.well-known/oauth-authorization-server${OAUTH_PATH}`,
  '/.well-known/oauth-authorization-server',
  `/.well-known/openid-configuration${OAUTH_PATH}`,
  `${OAUTH_PATH}/.well-known/oauth-authorization-server`,
]);

/** Registrations allowed per client IP and window. */
const REGISTRATIONS_PER_WINDOW = 30;
const WINDOW_MS = 3600_000;

export function mountOAuth(app: Koa, s: Services): void {
  // Plain functions where they only pass the request on (no promise of their own on every request).
  app.use(function oauthMetadataAliases(ctx: Context, next: Next) {
    if (ctx.method === 'GET' && METADATA_ALIASES.has(ctx.path)) ctx.path = DISCOVERY;
    return next();
  });
  app.use(registrationRateLimit(s));
  app.use(defaultScope);
  let mounted: Koa.Middleware | undefined;
  const serve = async (ctx: Context, next: Next) => {
    mounted ??= mount(OAUTH_PATH, await s.oauth.provider());
    return mounted(ctx, next);
  };
  app.use(function oauthProvider(ctx: Context, next: Next) {
    return ctx.path !== OAUTH_PATH && !ctx.path.startsWith(`${OAUTH_PATH}/`) ? next() : serve(ctx, next);
  });
}

/**
 * An authorization request that does not name mcp:tools, the MCP endpoint's only scope, gets it added
 * (RFC 6749 3.3 lets a server apply a default to a request naming none): the consent page shows it as
 * granted whatever was asked, yet oidc-provider granted nothing for a request naming no scope, or only
 * offline_access, and sent the person who pressed Allow back with access_denied. A scope given twice
 * is left for the provider to refuse.
 */
function defaultScope(ctx: Context, next: Next) {
  if (ctx.method === 'GET' && ctx.path === `${OAUTH_PATH}/auth`) {
    const scope = ctx.query['scope'];
    const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : scope === undefined ? [] : undefined;
    if (scopes && !scopes.includes(MCP_SCOPE)) ctx.query = { ...ctx.query, scope: [...scopes, MCP_SCOPE].join(' ') };
  }
  return next();
}

/** Open dynamic client registration, limited per IP so the Client table cannot be flooded. */
function registrationRateLimit(s: Services) {
  const limit = { max: REGISTRATIONS_PER_WINDOW, windowMs: WINDOW_MS };
  const limited = async (ctx: Context, next: Next): Promise<void> => {
    try {
      await consumeQuota(s.auth, `oauth-reg:${ctx.ip}`, limit);
    } catch (err) {
      if (!(err instanceof RateLimited)) throw err;
      writeError(ctx, err);
      return;
    }
    return next();
  };
  // A plain function for every other request: no promise of its own.
  return function limitRegistration(ctx: Context, next: Next): Promise<void> {
    return ctx.method !== 'POST' || ctx.path !== `${OAUTH_PATH}/reg` ? next() : limited(ctx, next);
  };
}
