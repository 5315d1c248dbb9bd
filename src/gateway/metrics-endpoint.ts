// Who may read /metrics (load, usage and error rates of every organization together): a Prometheus
// holding the configured bearer token, or whoever reaches the separate metrics listener, which binds
// to loopback unless the operator says otherwise. Without a token the public listener does not serve
// them at all (404): a reverse proxy on the same machine would otherwise make every visitor local.
import Koa, { type Context } from 'koa';
import type { Services } from '../compose/services.ts';
import { NotFound, Unauthorized } from '../errors.ts';
import { constantTimeEqual } from '../security/index.ts';
import { errorHandler } from './error-handler.ts';
import { requestId, securityHeaders } from './middleware.ts';

/** Refuses a request without the configured metrics token (401), compared in constant time. */
export function requireMetricsToken(token: string, ctx: Context): void {
  const header = ctx.get('authorization');
  const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  if (!given || !constantTimeEqual(given, token)) throw new Unauthorized('A valid metrics token is required', 'METRICS_TOKEN_REQUIRED');
}

/** /metrics on the public listener: served only with SEXTANT_METRICS_TOKEN, and then only to its holder. */
export function assertPublicMetricsReader(s: Services, ctx: Context): void {
  const { metrics, metricsToken } = s.config.ops;
  if (!metrics || !metricsToken) throw new NotFound();
  requireMetricsToken(metricsToken, ctx);
}

/** Answers with the Prometheus text. */
export async function sendMetrics(s: Services, ctx: Context): Promise<void> {
  const { contentType, text } = await s.ops.metrics.render();
  ctx.type = contentType;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = text;
}

/** The app of the separate metrics listener (SEXTANT_METRICS_PORT): GET /metrics and nothing else. */
export function metricsListenerApp(s: Services): Koa {
  const app = new Koa();
  app.use(requestId(s.log));
  app.use(securityHeaders(false));
  app.use(errorHandler);
  app.use(async function metricsOnly(ctx: Context): Promise<void> {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) throw new NotFound();
    // On a listener the operator exposed beyond loopback, the token (when set) still guards it.
    if (s.config.ops.metricsToken) requireMetricsToken(s.config.ops.metricsToken, ctx);
    await sendMetrics(s, ctx);
  });
  return app;
}
