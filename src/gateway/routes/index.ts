// Every route table of the REST API, one per area.
import type { RouteDef } from '../route.ts';
import type { Services } from '../services.ts';
import { healthRoutes } from './health.ts';
import { mcpOAuthRoutes } from './mcp-oauth.ts';

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return [...healthRoutes(s), ...mcpOAuthRoutes(s)];
}
