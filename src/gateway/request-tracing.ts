// One OpenTelemetry span per request (only when tracing is configured), named by route template like
// the metrics; the work a request causes (warehouse queries) records its spans as children.
import type { Context, Next } from 'koa';
import type { Tracing } from '../ops/index.ts';
import { routeLabel } from './request-metrics.ts';

export function requestTracing(tracing: Tracing, paths: ReadonlySet<string>) {
  return async function requestTracingMiddleware(ctx: Context, next: Next): Promise<void> {
    await tracing.inSpan(`HTTP ${ctx.method}`, async (span) => {
      try {
        await next();
      } finally {
        const route = routeLabel(ctx, paths);
        span.rename(`${ctx.method} ${route}`);
        span.setAttributes({ 'http.request.method': ctx.method, 'http.route': route, 'http.response.status_code': ctx.status });
      }
    });
  };
}
