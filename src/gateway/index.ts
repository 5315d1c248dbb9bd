export { createGateway, toKoaPath } from './create-gateway.ts';
export type { Gateway } from './create-gateway.ts';
export { buildOpenApi } from './openapi.ts';
export { MOUNTED_OPERATIONS } from './openapi-mounted.ts';
export type { Services } from '../compose/services.ts';
export { route } from './route.ts';
export type { RouteDef, RouteInput } from './route.ts';
export { metricsListenerApp } from './metrics-endpoint.ts';
