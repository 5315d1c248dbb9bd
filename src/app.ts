// The composition root: builds the services (src/compose), mounts them in the gateway and starts the
// background jobs (OAuth purge, search indexing, environment janitor, resumed evaluation runs, the
// subscription scheduler).
import type { Config } from './config.ts';
import { confineLegacyWarehouseFiles, seedDemo } from './compose/demo/seed-demo.ts';
import { createServices, type ServiceDeps } from './compose/create-services.ts';
import { purgeExpiredOAuthModels } from './auth/oauth/store-adapter.ts';
import { createGateway, metricsListenerApp, MOUNTED_OPERATIONS, type Gateway, type RouteDef, type Services } from './gateway/index.ts';
import { startEnvironmentJanitor } from './knowledge/index.ts';
import { startScheduler } from './subscriptions/index.ts';

export interface AppDeps extends ServiceDeps {
  /** Extra route tables, registered after the built-in ones (tests use this for probe routes). */
  extraRoutes?: (s: Services) => RouteDef[];
  /** The built web client to serve (default dist/web). */
  webDir?: string;
}

export interface App {
  koa: Gateway['app'];
  /** The separate metrics listener's app (SEXTANT_METRICS_PORT), when one is configured. */
  metricsKoa: Gateway['app'] | undefined;
  services: Services;
  routes: RouteDef[];
  /** Method and path of every route the router serves, and of the endpoints mounted beside it (MCP, OAuth). */
  served: { method: string; path: string }[];
  /**
   * First step of a graceful shutdown: readiness fails, no new run starts, running answers get
   * `graceMs` to finish and the rest are cut (an `error` event, stored as failed).
   */
  finishRuns(graceMs: number): Promise<void>;
  /** Tells long-lived streams to end (cutting runs still running). */
  drain(): void;
  /** Ends streams and closes storage. */
  close(): Promise<void>;
}

/** Builds the service from its configuration; tests pass their own clock and logger. */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const built = await createServices(config, deps);
  const { services } = built;
  const { clock, log } = services;
  // Expired OAuth artifacts (codes, tokens, interactions) are deleted hourly.
  const purge = setInterval(() => {
    purgeExpiredOAuthModels(services.executor, clock).catch((err: unknown) => log.warn({ err }, 'purging expired OAuth artifacts failed; the next hour retries'));
  }, 3600_000);
  purge.unref();
  // Chat messages queued for search are indexed as they are written (services.chats.searchIndex), and
  // here at start (what a restart or a crash left) and every second (what other processes wrote).
  const { searchIndex } = services.chats;
  searchIndex.nudge();
  const indexer = setInterval(() => searchIndex.nudge(), 1000);
  indexer.unref();
  await confineLegacyWarehouseFiles(services);
  if (config.seedDemo) await seedDemo(services);
  const gateway = createGateway(services, deps.extraRoutes?.(services) ?? [], deps.webDir);
  // Runs a restart interrupted go on with their pending questions.
  await services.evaluations.resume();
  // Throwaway environments idle for 7 days are deleted; tests call expireThrowawayEnvironments directly.
  const janitor = startEnvironmentJanitor(services.knowledge);
  // Every replica runs the subscription scheduler: slots are claimed in the store, once each.
  const scheduler = startScheduler(services.subscriptions, config.subscriptionTickMs);
  return {
    koa: gateway.app,
    metricsKoa: config.ops.metrics && config.ops.metricsPort !== undefined ? metricsListenerApp(services) : undefined,
    services,
    routes: gateway.routes,
    served: [...gateway.router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) }))), ...MOUNTED_OPERATIONS],
    finishRuns: (graceMs) => built.finishRuns(graceMs),
    drain: () => built.drain(),
    async close() {
      clearInterval(purge);
      clearInterval(indexer);
      janitor.stop();
      await scheduler.stop();
      await built.close();
    },
  };
}
