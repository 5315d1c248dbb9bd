// Credential resolution for REST routes (interface part 5). Precedence, strongest first: the
// `API-KEY` header, `Authorization: Bearer`, the session cookie; `api_token` + `user_id` in the
// query only where a route allows it. An explicit credential that fails is never silently
// replaced by a weaker one.
import type { Context } from 'koa';
import { authenticate, type AuthDeps, type PresentedCredential, type Principal } from '../auth/index.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { andThen, type MaybePromise } from '../shared/settled.ts';
import { SESSION_COOKIE } from './cookies.ts';
import type { RouteDef } from './route.ts';

/** Credential kinds every REST route accepts; others only where a route lists them. */
const REST_KINDS: Principal['credential'][] = ['session', 'api_token', 'cli_token', 'embedded'];

export class QueryTokenNotAccepted extends Unauthorized {
  constructor() {
    super('api_token in the query string is accepted only on connection sync, import and export_history', 'QUERY_TOKEN_NOT_ACCEPTED');
  }
}

export class WrongTokenKind extends Forbidden {
  constructor() {
    super('Token does not have required API access', 'TOKEN_KIND_REFUSED');
  }
}

/** Reads the credential a request presents, if any, following the precedence above. */
export function presentedCredential(ctx: Context, def: Pick<RouteDef, 'queryCredential'>): PresentedCredential | undefined {
  const query = ctx.query;
  // Refused outright elsewhere, so a token pasted into a URL never works by accident.
  if (query['api_token'] !== undefined && def.queryCredential !== 'api_token') throw new QueryTokenNotAccepted();
  // Header names in lower case: Koa looks them up lower-cased (see securityHeaders in middleware.ts).
  const apiKey = ctx.get('api-key');
  if (apiKey) return { via: 'api_key', value: apiKey };
  const authz = ctx.get('authorization');
  const bearer = /^Bearer\s+(\S+)$/i.exec(authz)?.[1];
  if (bearer) return { via: 'bearer', value: bearer };
  if (authz) throw new Unauthorized('Unsupported Authorization scheme', 'UNSUPPORTED_AUTH_SCHEME');
  const cookie = ctx.cookies.get(SESSION_COOKIE, { signed: false });
  if (cookie) return { via: 'cookie', value: cookie };
  if (typeof query['api_token'] === 'string') {
    return { via: 'query_token', value: query['api_token'], userId: typeof query['user_id'] === 'string' ? query['user_id'] : undefined };
  }
  if (def.queryCredential === 'token' && typeof query['token'] === 'string') return { via: 'bearer', value: query['token'] };
  return undefined;
}

/**
 * Resolves the route's principal, enforcing its auth mode and the accepted credential kinds; at once
 * (no promise) when the credential cache holds the credential.
 */
export function resolvePrincipal(deps: AuthDeps, ctx: Context, def: RouteDef): MaybePromise<Principal | undefined> {
  if (def.auth === 'none') return undefined;
  const presented = presentedCredential(ctx, def);
  if (!presented) {
    if (def.auth === 'optional') return undefined;
    throw new Unauthorized();
  }
  return andThen(authenticate(deps, presented), (principal) => acceptedKind(principal, def));
}

function acceptedKind(principal: Principal, def: RouteDef): Principal {
  if (!REST_KINDS.includes(principal.credential) && !def.alsoAccepts?.includes(principal.credential)) {
    throw principal.credential === 'enrollment' ? new Forbidden('Complete MFA enrollment first', 'MFA_ENROLLMENT_REQUIRED') : new WrongTokenKind();
  }
  return principal;
}
