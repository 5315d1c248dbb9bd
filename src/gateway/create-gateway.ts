// Builds the Koa application: middleware in order, then every route table, then the 404/405 answer.
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { hasRole } from '../auth/index.ts';
import { Forbidden, MethodNotAllowed, NotFound } from '../errors.ts';
import { bodyParser } from './body.ts';
import { canonicalizePath } from './canonical-path.ts';
import { clientAddress } from './client-address.ts';
import { csrfProtection } from './csrf.ts';
import { resolvePrincipal } from './credentials.ts';
import { audited, isAudited } from './audited-operations.ts';
import { auditAdminRefusals, isAdministrative } from './admin-refusals.ts';
import { errorHandler } from './error-handler.ts';
import { accessLog, logLateErrors, requestId, securityHeaders } from './middleware.ts';
import { requestMetrics } from './request-metrics.ts';
import { requestTracing } from './request-tracing.ts';
import { openApiRoutes } from './openapi.ts';
import { staticRoutes } from './static-routes.ts';
import type { RouteDef, RouteInput } from './route.ts';
import { allRoutes } from './routes/index.ts';
import type { Services } from '../compose/services.ts';
import { validate } from './validation.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import { mountOAuth } from './oauth/mount-oauth.ts';
import { DEFAULT_WEB_DIR, webApp } from './web-app.ts';

/** The Koa app with its route definitions (kept for the OpenAPI document and its tests). */
export interface Gateway {
  app: Koa;
  routes: RouteDef[];
  /** The router as served: its layers are what the OpenAPI test compares against the document. */
  router: Router;
}

/** `webDir`: the built web client (default dist/web; tests pass their own build). */
export function createGateway(s: Services, extraRoutes: RouteDef[] = [], webDir = DEFAULT_WEB_DIR): Gateway {
  const app = new Koa({ proxy: s.config.trustProxy, keys: s.config.secrets.cookieKeys });
  const https = s.config.baseUrl.startsWith('https://');
  const routes = [...allRoutes(s), ...extraRoutes];
  routes.push(...openApiRoutes(s, () => routes));
  // One spelling per route: `/API/...` and `/api/x/` are not `/api/...` and `/api/x`, so no path-based
  // check (CSRF, credentials, metrics, mounts) can be passed by a spelling the router would still serve.
  const router = new Router({ sensitive: true, strict: true });
  // Administrative routes audit every refusal (403, 404, 409, 422, 429) as a failure.
  const handlers = routes.map((def) => ({ method: def.method, path: toKoaPath(def.path), handler: isAdministrative(def) ? auditAdminRefusals(s, def, routeHandler(s, def)) : routeHandler(s, def) }));
  for (const [i, h] of handlers.entries()) router.register(h.path, [h.method], h.handler, { name: routes[i]!.operationId });

  app.on('error', logLateErrors(s.log));
  app.use(requestId(s.log));
  app.use(canonicalizePath);
  app.use(clientAddress(s.config.trustedProxies));
  const fixedPaths = new Set(routes.filter((r) => !r.path.includes('{')).map((r) => r.path));
  if (s.ops.tracing) app.use(requestTracing(s.ops.tracing, fixedPaths));
  if (s.config.ops.metrics) app.use(requestMetrics(s.ops.metrics, fixedPaths));
  app.use(accessLog(s.log));
  app.use(securityHeaders(https));
  // Without allowed origins CORS has nothing to answer: no middleware (and no await) per request.
  if (s.config.corsOrigins.length > 0) app.use(cors({ origin: (ctx) => corsOrigin(s.config.corsOrigins, ctx), credentials: true, exposeHeaders: ['X-Request-Id', 'ETag'] }));
  app.use(errorHandler);
  app.use(csrfProtection(s.config.corsOrigins));
  // Order matters: the MCP endpoint, then the authorization server (its matched routes end the
  // response; the rest falls through), then the REST router. No global body parser anywhere.
  mountMcp(app, s);
  mountOAuth(app, s);
  app.use(staticRoutes(router, handlers));
  app.use(router.routes());
  app.use(webApp(webDir, https));
  app.use(notFoundOrNotAllowed(router));
  return { app, routes, router };
}

/** Validates, authenticates and calls one route's handler. */
function routeHandler(s: Services, def: RouteDef) {
  const handler = def.handler as (input: RouteInput<unknown, unknown, unknown>) => unknown;
  const audit = isAudited(def.operationId);
  const parse = def.body ? bodyParser(def.bodyType ?? 'json', { jsonBytes: def.bodyLimit === 'upload' ? s.config.uploadLimitBytes : s.config.bodyLimitBytes, multipartFileBytes: s.config.uploadLimitBytes }) : undefined;
  return async function handle(ctx: Context): Promise<void> {
    // A credential the cache holds resolves without a promise; awaiting only promises spares the
    // common request a suspension of this frame.
    const resolved = resolvePrincipal(s.auth, ctx, def);
    const principal = resolved instanceof Promise ? await resolved : resolved;
    ctx.state.principal = principal;
    if (def.role && principal && !hasRole(principal, def.role)) throw new Forbidden();
    const params = def.params ? validate(def.params, ctx.params, 'path') : {};
    const query = def.query ? validate(def.query, ctx.query, 'query') : {};
    if (parse) await parse(ctx);
    const body = def.body ? validate(def.body, ctx.request.body, 'body') : undefined;
    const environmentId = ctx.get('x-service-environment') || undefined;
    const ifMatch = def.conditional ? parseIfMatch(ctx.get('If-Match')) : undefined;
    // resolvePrincipal has thrown already when an `auth: 'user'` route has no principal.
    const input = { params, query, body, principal, environmentId, ifMatch, ctx };
    // Operations the gateway audits go through audited(); the rest (every read) call the handler
    // directly, without the two promises and the closure auditing takes.
    const returned = audit && principal ? audited(s, ctx, { operationId: def.operationId, principal, params: params as Record<string, unknown> }, async () => handler(input)) : handler(input);
    const result = returned instanceof Promise ? await returned : returned;
    const tag = def.etag && result !== undefined ? (def.etag as (r: unknown) => string | undefined)(result) : undefined;
    if (tag) ctx.set('ETag', `"${tag}"`);
    if (ctx.respond === false || ctx.body !== undefined) return;
    if (result === undefined) {
      ctx.status = 204;
      return;
    }
    ctx.status = def.status ?? 200;
    ctx.body = isPlainData(result) ? jsonText(ctx, result) : result;
  };
}

/** A plain object or array: what Koa would serialise as JSON (not a string, Buffer, stream or Blob). */
function isPlainData(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/**
 * The JSON text of an answer, with its type set once. Given the object, Koa looks the type up by name,
 * removes and sets the length twice and tests the body against four other kinds before serialising
 * it the same way (~1 µs per request in a profile).
 */
function jsonText(ctx: Context, value: object): string {
  ctx.res.setHeader('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(value);
}

function notFoundOrNotAllowed(router: Router) {
  return async function notFound(ctx: Context): Promise<void> {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0 && !match.route) {
      const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
      throw new MethodNotAllowed(allowed);
    }
    throw new NotFound();
  };
}

function corsOrigin(allowed: string[], ctx: Context): string {
  const origin = ctx.get('Origin');
  return allowed.includes(origin) ? origin : '';
}

/** `If-Match` as a list of versions (strong or weak tags, quoted or not), `*`, or undefined when absent. */
export function parseIfMatch(header: string): string[] | '*' | undefined {
  const value = header.trim();
  if (!value) return undefined;
  if (value === '*') return '*';
  return value.split(',').map((t) => t.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1')).filter(Boolean);
}

/** `/api/x/{id}` -> `/api/x/:id`. */
export function toKoaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
