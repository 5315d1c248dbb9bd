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
      // SQLite answers the ping synchronously: then so does the route, with no promise to await.
      handler: () => {
        const healthy = () => ({ status: 'ok' as const, database: 'ok' as const, version: s.config.version });
        try {
          const pong = s.store.ping();
          return pong ? pong.then(healthy, databaseUnavailable) : healthy();
        } catch {
          return databaseUnavailable();
        }
      },
    }),
  ];
}

function databaseUnavailable(): never {
  throw new AppError('unavailable', 'DATABASE_UNAVAILABLE', 'Database unavailable');
}
