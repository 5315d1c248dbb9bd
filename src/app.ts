// The composition root: the one place that wires configuration, storage and domains together.
import { join } from 'node:path';
import type Koa from 'koa';
import { noLineage, noSuggestionSources } from './chats/index.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { seedDemo } from './demo/seed-demo.ts';
import { createGateway, type RouteDef, type Services } from './gateway/index.ts';
import type { ChatSources } from './gateway/services.ts';
import { createLogger, type Logger } from './log.ts';
import { createSecretBox } from './security/index.ts';
import { openStore } from './store/index.ts';

export interface AppDeps {
  clock?: Clock;
  log?: Logger;
  /** Extra route tables, registered after the built-in ones (tests use this for probe routes). */
  extraRoutes?: (s: Services) => RouteDef[];
  /** Lineage and suggestion sources of chats; unset parts answer "unavailable" / nothing. */
  chatSources?: Partial<ChatSources>;
}

export interface App {
  koa: Koa;
  services: Services;
  routes: RouteDef[];
  /** Tells long-lived streams to end (first step of a graceful shutdown). */
  drain(): void;
  /** Ends streams and closes storage. */
  close(): Promise<void>;
}

/** Builds the service from its configuration; tests pass their own clock and logger. */
export async function createApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const log = deps.log ?? createLogger(config.logLevel);
  const store = openStore({ file: join(config.dataDir, 'sextant.db') });
  const shutdown = new AbortController();
  const services: Services = {
    config,
    clock: deps.clock ?? systemClock,
    store,
    log,
    secretBox: createSecretBox(config.secrets.encryptionKey),
    shutdown: shutdown.signal,
    chatSources: { lineage: noLineage, suggestions: noSuggestionSources, ...deps.chatSources },
  };
  if (config.seedDemo) await seedDemo(services);
  const gateway = createGateway(services, deps.extraRoutes?.(services) ?? []);
  return {
    koa: gateway.app,
    services,
    routes: gateway.routes,
    drain: () => shutdown.abort(),
    async close() {
      shutdown.abort();
      if (store.db.open) store.close();
    },
  };
}
