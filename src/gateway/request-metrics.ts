// Times every request for Prometheus, labelled by route template: `/api/chats/{id}`, never the
// chat's id, so the number of series stays bounded whatever the clients send.
import type { Context, Next } from 'koa';
import type { Metrics } from '../ops/metrics.ts';

/** `paths`: the templates of routes without parameters (served outside the router, so unlabelled by it). */
export function requestMetrics(metrics: Metrics, paths: ReadonlySet<string>) {
  return async function requestMetricsMiddleware(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.observeRequest(ctx.method, routeLabel(ctx, paths), ctx.status, (performance.now() - started) / 1000);
    }
  };
}

/** The route template of a request, or one bounded name for what no route table serves. */
export function routeLabel(ctx: Context, paths: ReadonlySet<string>): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched.replace(/:(\w+)/g, '{$1}');
  const path = ctx.path;
  if (paths.has(path)) return path;
  // Mounted applications and the web client: one series each.
  if (path.startsWith('/mcp')) return '/mcp';
  if (path.startsWith('/oauth/') || path.startsWith('/.well-known/')) return '/oauth';
  if (path.startsWith('/api/')) return '/api/(unmatched)';
  return '/(web)';
}
