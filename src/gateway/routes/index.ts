// Every route table of the REST API, one per area.
import type { RouteDef } from '../route.ts';
import type { Services } from '../services.ts';
import { chatExtraRoutes } from './chat-extras.ts';
import { chatSharingRoutes } from './chat-sharing.ts';
import { chatRoutes } from './chats.ts';
import { healthRoutes } from './health.ts';

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return [...healthRoutes(s), ...chatRoutes(s), ...chatSharingRoutes(s), ...chatExtraRoutes(s)];
}
