// What operators and their tools read: readiness for load balancers, Prometheus metrics.
import type { Context } from 'koa';
import { z } from 'zod';
import { Forbidden, NotFound, Unauthorized } from '../../errors.ts';
import { constantTimeEqual } from '../../security/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Ready = z.object({
  status: z.enum(['ready', 'not_ready', 'draining']).describe('`ready` (200); `not_ready` or `draining` (503)'),
  checks: z.record(z.string(), z.enum(['ok', 'failed'])).describe('store, knowledge, and redis when configured'),
});

/** Readiness (503 while a dependency fails or the process drains before shutdown) and /metrics. */
export function operationsRoutes(s: Services) {
  return [
    route({
      method: 'GET',
      path: '/api/ready',
      operationId: 'ready',
      summary: 'Readiness for a load balancer: the store, the knowledge folder and Redis answer, and the process is not draining (503 otherwise)',
      tags: ['service'],
      auth: 'none',
      response: Ready,
      handler: async ({ ctx }) => {
        const r = await s.ops.readiness();
        ctx.status = r.ready ? 200 : 503;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: r.ready ? 'ready' : r.draining ? 'draining' : 'not_ready', checks: r.checks };
      },
    }),
    route({
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics; with SEXTANT_METRICS_TOKEN a bearer token is required, without it only direct loopback clients are answered',
      tags: ['service'],
      auth: 'none',
      produces: 'text/plain; version=0.0.4',
      handler: async ({ ctx }) => {
        assertMetricsReader(s, ctx);
        const { contentType, text } = await s.ops.metrics.render();
        ctx.type = contentType;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = text;
      },
    }),
  ];
}

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Metrics tell load and usage: a token when one is configured, else a client on this machine talking to it directly. */
function assertMetricsReader(s: Services, ctx: Context): void {
  const { metrics, metricsToken } = s.config.ops;
  if (!metrics) throw new NotFound();
  if (metricsToken) {
    const header = ctx.get('Authorization');
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!given || !constantTimeEqual(given, metricsToken)) throw new Unauthorized('A valid metrics token is required', 'METRICS_TOKEN_REQUIRED');
    return;
  }
  // A reverse proxy on this machine connects from loopback too: a request it forwards is not local.
  const remote = ctx.req.socket.remoteAddress ?? '';
  const loopback = remote === '::1' || remote.startsWith('127.') || remote.startsWith('::ffff:127.');
  if (!loopback || PROXY_HEADERS.some((h) => ctx.get(h) !== '')) throw new Forbidden('Metrics are served to loopback clients only; set SEXTANT_METRICS_TOKEN to read them from elsewhere', 'METRICS_LOOPBACK_ONLY');
}
