// The composition root: the one place that wires configuration, storage and domains together.
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { AgentRuns, createProvider, type AgentPorts, type LlmProvider } from './agent/index.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { openDuckDbSql } from './data/guard/index.ts';
import { QueryProcessPool, readTargetTables, withCoverage } from './data/index.ts';
import type { TableDocsSource } from './data/types.ts';
import { createUploadStore, defaultUploadLimits } from './data/uploads/index.ts';
import { confineLegacyWarehouseFiles, seedDemo } from './demo/seed-demo.ts';
import { createAccountMail } from './auth/account-mail.ts';
import { accountDeps } from './gateway/account-deps.ts';
import { createGateway, type Gateway, type RouteDef, type Services } from './gateway/index.ts';
import { createOAuthServer } from './gateway/oauth/create-provider.ts';
import { checkKnowledgeRepositories, createKnowledgeDeps, createTableDocsSource, startEnvironmentJanitor } from './knowledge/index.ts';
import { indexPendingMessages, indexQueueInSlices } from './chats/index.ts';
import type { ChatSources, CoreServices } from './gateway/services.ts';
import { agentPortsFrom } from './compose/agent-ports.ts';
import { chatSourcesFrom } from './compose/chat-sources.ts';
import { ssoGroupPort } from './compose/sso-groups.ts';
import { agentMcpPorts } from './compose/mcp-agent-ports.ts';
import { evaluationAgentPort } from './compose/evaluation-agent.ts';
import { evaluationKnowledgePort } from './compose/evaluation-knowledge.ts';
import { evaluationPrincipalsPort } from './compose/evaluation-principals.ts';
import { gatedMerge } from './compose/merge-gate.ts';
import { Evaluations } from './evaluations/index.ts';
import { createLogger, type Logger } from './log.ts';
import { createMailQueue, createSmtpMailer, type Mailer } from './mail/index.ts';
import { purgeExpiredOAuthModels } from './mcp/oauth/sqlite-adapter.ts';
import type { McpPorts } from './mcp/ports.ts';
import { dataMcpPorts } from './mcp/data-ports.ts';
import { knowledgeMcpPort } from './mcp/knowledge-port.ts';
import { createSecretBox } from './security/index.ts';
import { openStore } from './store/index.ts';

export interface AppDeps {
  clock?: Clock;
  log?: Logger;
  /** Replaces the transport chosen from the configuration (mail still goes through the outbox queue). */
  mailer?: Mailer;
  /** Extra route tables, registered after the built-in ones (tests use this for probe routes). */
  extraRoutes?: (s: Services) => RouteDef[];
  /** Where table documentation comes from (default: the organization's knowledge repository). */
  tableDocs?: TableDocsSource;
  /** Replaces the ports the MCP tools call (tests use fakes). */
  mcpPorts?: McpPorts;
  /** Replaces parts of what chats read from other domains (lineage analysis, suggestion sources). */
  chatSources?: Partial<ChatSources>;
  /** Replaces some of the agent's ports (knowledge, queries, chats, uploads, profiles); the rest are the real modules. */
  agentPorts?: (s: Pick<Services, 'store' | 'clock' | 'config'>) => Partial<AgentPorts>;
  /** Replaces the configured model provider. */
  llmProvider?: LlmProvider;
  /** The built web client to serve (default dist/web). */
  webDir?: string;
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
  const smtp = config.mail.smtpUrl ? createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from }) : undefined;
  const secretBox = createSecretBox(config.secrets.encryptionKey);
  const knowledge = createKnowledgeDeps({ db: store.db, clock, log, secretBox, dataDir: config.dataDir });
  // Before anything reads or seeds knowledge: branches a crash left damaged are restored from their reflog.
  await checkKnowledgeRepositories(knowledge, { repair: true });
  const duckdbSql = await openDuckDbSql();
  const mailer = createMailQueue({ db: store.db, clock, log, transport: deps.mailer ?? smtp });
  const accountMail = createAccountMail(accountDeps({ store, clock, config, secretBox, mailer, log }));
  const core: CoreServices = {
    config,
    clock,
    store,
    log,
    mailer,
    accountMail,
    secretBox,
    knowledge,
    data: {
      db: store.db,
      clock,
      secretBox,
      tools: { duckdb: duckdbSql },
      docs: deps.tableDocs ?? createTableDocsSource(knowledge),
      fileRoots: config.data.warehouseRoots,
      statementTimeoutMs: config.data.queryTimeoutMs,
      queryProcesses: new QueryProcessPool({ max: config.data.queryProcesses, memoryMb: config.data.queryMemoryMb }),
      maxRecursion: config.data.queryMaxRecursion,
      defaultRowLimit: config.data.queryRowLimit,
    },
    uploads: createUploadStore({
      dataDir: config.dataDir,
      clock,
      limits: defaultUploadLimits({ fileBytes: config.uploadLimitBytes, chatBytes: config.uploadChatLimitBytes }),
    }),
    shutdown: shutdown.signal,
    oauth: createOAuthServer({ config, clock, store, secretBox, log }),
    chatSources: { ...chatSourcesFrom(knowledge), ...deps.chatSources },
    ssoGroups: ssoGroupPort(store.db),
  };
  // Expired OAuth artifacts (codes, tokens, interactions) are deleted hourly.
  const purge = setInterval(() => purgeExpiredOAuthModels(store.db, clock), 3600_000);
  purge.unref();
  // Chat messages queued for search are indexed every second, in slices (a search indexes the queue first).
  let indexing: Promise<void> | undefined;
  const indexer = setInterval(() => {
    indexing ??= indexQueueInSlices(store.db)
      .catch((err: unknown) => {
        if (store.db.open) log.warn({ err }, 'indexing chat messages for search failed; the next search or tick retries');
      })
      .finally(() => (indexing = undefined));
  }, 1000);
  indexer.unref();
  // Environment sync_target reads the dev targets' metadata through the data plane.
  // Coverage columns come from production's documentation, which an environment starts from.
  knowledge.targetSync = { readTarget: async (principal, connectionId, target) => withCoverage(core.data, principal, undefined, connectionId, target, await readTargetTables(core.data, principal, connectionId, target)) };
  // The agent reaches knowledge, data, chats and uploads only through its ports.
  const agentPorts: AgentPorts = { ...agentPortsFrom(core), ...deps.agentPorts?.(core) };
  const provider = deps.llmProvider ?? (await createProvider(config.agent, clock));
  const agent = new AgentRuns({ db: store.db, clock, log, config: config.agent, provider, ports: agentPorts, shutdown: shutdown.signal });
  // MCP tools: the data plane answers catalog and run_query, knowledge answers search, the agent answers questions.
  const mcp: McpPorts = deps.mcpPorts ?? { ...dataMcpPorts(core.data), ...knowledgeMcpPort(knowledge), ...agentMcpPorts(agent) };
  // Evaluations ask the agent (knowledge pinned to a commit) and read definitions from knowledge, through their ports.
  const evaluations = new Evaluations({
    db: store.db,
    clock,
    log,
    config: config.evaluations,
    shutdown: shutdown.signal,
    ports: { knowledge: evaluationKnowledgePort(knowledge), agent: evaluationAgentPort(agent, knowledge), principals: evaluationPrincipalsPort(store.db) },
  });
  const services: Services = { ...core, agent, agentPorts, mcp, evaluations, mergeEnvironment: gatedMerge(knowledge, evaluations) };
  confineLegacyWarehouseFiles(services);
  if (config.seedDemo) await seedDemo(services);
  const gateway = createGateway(services, deps.extraRoutes?.(services) ?? [], deps.webDir);
  // Runs a restart interrupted go on with their pending questions.
  evaluations.resume();
  // Throwaway environments idle for 7 days are deleted; tests call expireThrowawayEnvironments directly.
  const janitor = startEnvironmentJanitor(knowledge);
  return {
    koa: gateway.app,
    services,
    routes: gateway.routes,
    served: gateway.router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) }))),
    drain: () => shutdown.abort(),
    async close() {
      shutdown.abort();
      clearInterval(purge);
      clearInterval(indexer);
      mailer.close();
      smtp?.close();
      janitor.stop();
      duckdbSql.close();
      // Queries still running on file warehouses end now (their processes are killed), before the store closes.
      await core.data.queryProcesses.close();
      if (store.db.open) {
        agent.flush();
        indexPendingMessages(store.db);
        store.close();
      }
    },
  };
}
