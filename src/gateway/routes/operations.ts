// What operators and their tools read: readiness for load balancers, Prometheus metrics.
import { z } from 'zod';
import { assertPublicMetricsReader, sendMetrics } from '../metrics-endpoint.ts';
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
        // As JSON text: given an object, Koa tests it against the global Response, whose first use loads
        // Node's fetch (~60 ms of CPU), and a new replica's first answer here tells its balancer it is ready.
        ctx.type = 'json';
        ctx.body = JSON.stringify({ status: r.ready ? 'ready' : r.draining ? 'draining' : 'not_ready', checks: r.checks });
      },
    }),
    route({
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics, served here only with SEXTANT_METRICS_TOKEN and to that bearer token (404 without it); SEXTANT_METRICS_PORT serves them on a separate loopback listener',
      tags: ['service'],
      auth: 'none',
      produces: 'text/plain; version=0.0.4',
      handler: async ({ ctx }) => {
        assertPublicMetricsReader(s, ctx);
        await sendMetrics(s, ctx);
      },
    }),
  ];
}
