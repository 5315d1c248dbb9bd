// Every route table of the REST API, one per area.
import type { RouteDef } from '../route.ts';
import type { Services } from '../services.ts';
import { cliAuthorizeRoutes } from './cli-authorize.ts';
import { cliDistributionRoutes } from './cli-dist.ts';
import { cliLoginRoutes } from './cli-login.ts';
import { healthRoutes } from './health.ts';
import { tokenRoutes } from './tokens.ts';

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return [...healthRoutes(s), ...tokenRoutes(s), ...cliLoginRoutes(s), ...cliAuthorizeRoutes(s), ...cliDistributionRoutes(s)];
}
