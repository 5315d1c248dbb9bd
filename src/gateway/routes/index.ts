// Every route table of the REST API, one per area.
import type { RouteDef } from '../route.ts';
import type { Services } from '../services.ts';
import { connectionRoutes } from './connections.ts';
import { dataCatalogRoutes } from './data-catalog.ts';
import { dataQueryRoutes } from './data-queries.ts';
import { healthRoutes } from './health.ts';
import { rowSecurityRoutes } from './row-security.ts';

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return [...healthRoutes(s), ...connectionRoutes(s), ...rowSecurityRoutes(s), ...dataQueryRoutes(s), ...dataCatalogRoutes(s)];
}
