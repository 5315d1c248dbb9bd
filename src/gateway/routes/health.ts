import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Health = z.object({ status: z.literal('ok'), database: z.literal('ok'), version: z.string() });

/** Liveness and readiness: answers only when the database answers. */
export function healthRoutes(s: Services) {
  return [
    route({
      method: 'GET',
      path: '/api/health',
      operationId: 'health',
      summary: 'Service health, including a database round trip',
      tags: ['service'],
      auth: 'none',
      response: Health,
      handler: async () => {
        try {
          await s.store.ping();
        } catch {
          throw new AppError('unavailable', 'DATABASE_UNAVAILABLE', 'Database unavailable');
        }
        return { status: 'ok', database: 'ok', version: s.config.version };
      },
    }),
  ];
}
