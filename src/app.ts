// The composition root: the one place that wires configuration, storage and domains together.
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { AgentRuns, createProvider, defaultPorts, type AgentPorts, type LlmProvider } from './agent/index.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { seedDemo } from './demo/seed-demo.ts';
import { createGateway, type Gateway, type RouteDef, type Services } from './gateway/index.ts';
import { createLogger, type Logger } from './log.ts';
import { createSecretBox } from './security/index.ts';
import { openStore } from './store/index.ts';

export interface AppDeps {
  clock?: Clock;
  log?: Logger;
  /** Extra route tables, registered after the built-in ones (tests use this for probe routes). */
  extraRoutes?: (s: Services) => RouteDef[];
  /** Replaces agent ports (knowledge, queries, chats, uploads, profiles); the rest use the in-memory defaults. */
  agentPorts?: (s: Pick<Services, 'store' | 'clock' | 'config'>) => Partial<AgentPorts>;
  /** Replaces the configured model provider. */
  llmProvider?: LlmProvider;
}

export interface App {
  koa: Gateway['app'];
  services: Services;
  routes: RouteDef[];
  /** Method and path of every route the router serves. */
  served: { method: string; path: string }[];
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
  // Every open event stream listens for shutdown.
  setMaxListeners(0, shutdown.signal);
  const clock = deps.clock ?? systemClock;
  const base = { config, clock, store, log, secretBox: createSecretBox(config.secrets.encryptionKey), shutdown: shutdown.signal };
  const agentPorts: AgentPorts = { ...defaultPorts(store.db), ...deps.agentPorts?.(base) };
  const provider = deps.llmProvider ?? createProvider(config.agent, clock);
  const agent = new AgentRuns({ db: store.db, clock, log, config: config.agent, provider, ports: agentPorts, shutdown: shutdown.signal });
  const services: Services = { ...base, agent, agentPorts };
  if (config.seedDemo) await seedDemo(services);
  const gateway = createGateway(services, deps.extraRoutes?.(services) ?? []);
  return {
    koa: gateway.app,
    services,
    routes: gateway.routes,
    served: gateway.router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) }))),
    drain: () => shutdown.abort(),
    async close() {
      shutdown.abort();
      if (store.db.open) store.close();
    },
  };
}
