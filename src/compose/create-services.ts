// Builds the services object: configuration, storage and every domain, wired through the ports in
// this folder. The gateway receives the result; nothing here knows of HTTP.
import { setMaxListeners } from 'node:events';
import { AgentRuns, createProvider, type AgentPorts, type LlmProvider } from '../agent/index.ts';
import { createAccountMail } from '../auth/account/account-mail.ts';
import { getUser } from '../auth/index.ts';
import { productionThroughEnvironments } from '../auth/members/index.ts';
import { createOAuthServer } from '../auth/oauth/create-provider.ts';
import { createSearchIndexer, indexPendingMessages, learnPendingWords, messageWrites, type ChatSources } from '../chats/index.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { openDuckDbSql, type DuckDbSql } from '../data/guard/index.ts';
import { QueryProcessPool } from '../data/index.ts';
import type { DataDeps } from '../data/deps.ts';
import type { TableDocsSource } from '../data/types.ts';
import { createUploadStore, defaultUploadLimits } from '../data/uploads/index.ts';
import { Evaluations } from '../evaluations/index.ts';
import { checkKnowledgeRepositories, createKnowledgeDeps } from '../knowledge/index.ts';
import { createLogger, type Logger } from '../log.ts';
import { createMailQueue, createSmtpMailer, type Mailer } from '../mail/index.ts';
import type { McpPorts } from '../mcp/ports.ts';
import { createSecretBox, newId, type SecretBox } from '../security/index.ts';
import { CommitGroup, openServiceStore } from '../store/index.ts';
import { accountDeps } from './account-deps.ts';
import { agentPortsFrom } from './agent-ports.ts';
import { chatSourcesFrom } from './chat-sources.ts';
import { questionCheck } from './question-check.ts';
import { rowSecurityAdmin } from './row-security-members.ts';
import { memberFactsPort } from './member-facts.ts';
import { evaluationAgentPort } from './evaluation-agent.ts';
import { evaluationKnowledgePort } from './evaluation-knowledge.ts';
import { importKnowledgePort } from './import-knowledge.ts';
import { importWarehousePort } from './import-warehouse.ts';
import { createRenderMemo } from '../imports/dbt/index.ts';
import { savedPorts } from './saved-ports.ts';
import { dashboardPorts } from './dashboard-ports.ts';
import { subscriptionDeps } from './subscription-deps.ts';
import { reportGivenUpMail } from '../subscriptions/index.ts';
import { evaluationPrincipalsPort } from './evaluation-principals.ts';
import { agentMcpPorts } from './mcp-agent-ports.ts';
import { dataMcpPorts } from './mcp-data-ports.ts';
import { knowledgeMcpPort } from './mcp-knowledge-port.ts';
import { knowledgeWriteLock } from './knowledge-lock.ts';
import { gatedMerge } from './merge-gate.ts';
import { openOperations, watchQueues } from './operations.ts';
import type { CoreServices, Services } from './services.ts';
import { ssoGroupPort } from './sso-groups.ts';
import { createTableDocsSource } from './table-docs-source.ts';
import { targetMetadataReader } from './target-metadata.ts';
import { createOutbound, type Outbound } from '../outbound/index.ts';
import type { LookupFunction } from 'node:net';

/** What a caller (tests, mostly) may put in place of the configured parts. */
export interface ServiceDeps {
  clock?: Clock;
  log?: Logger;
  /** Replaces the transport chosen from the configuration (mail still goes through the outbox queue). */
  mailer?: Mailer;
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
  /** Replaces DNS for the guarded outbound client (tests give made-up names a loopback address). */
  outboundLookup?: LookupFunction;
  /**
   * The caller holds the data folder's lock (main.ts): no other process uses this store, so runs found
   * running at start are failed at once. Without it (tests running replicas on one folder) only runs
   * whose replica stopped heartbeating are.
   */
  exclusiveStore?: boolean;
}

/** The services and what closes the parts of them that hold resources (mail transport, DuckDB, processes, store). */
export interface BuiltServices {
  services: Services;
  /** Drain: readiness fails, no new run starts, running answers get `graceMs` to finish and the rest are cut. */
  finishRuns(graceMs: number): Promise<void>;
  /** Ends the shutdown signal; long-lived streams end. */
  drain(): void;
  /** Ends streams, closes the mail transport, DuckDB and query processes, then flushes and closes the store. */
  close(): Promise<void>;
}

/** Opens storage and builds every domain, each reaching the others only through its ports. */
export async function createServices(config: Config, deps: ServiceDeps = {}): Promise<BuiltServices> {
  const { core, shutdown, draining, closeCore } = await createCore(config, deps);
  const services = await wireDomains(core, deps);
  return {
    services,
    finishRuns: (graceMs) => {
      draining.abort();
      return services.agent.finishRuns(graceMs);
    },
    drain: () => shutdown.abort(),
    async close() {
      draining.abort();
      shutdown.abort();
      await closeCore();
      const { store } = services;
      if (store.open) {
        await services.agent.flush();
        await services.chats.searchIndex.idle();
        await indexPendingMessages(services.chats.store);
        await learnPendingWords(services.chats.store);
        await store.close();
      }
    },
  };
}

/** Storage, mail, secrets, knowledge and the data plane: everything the agent's ports are built from. */
async function createCore(config: Config, deps: ServiceDeps): Promise<{ core: CoreServices; shutdown: AbortController; draining: AbortController; closeCore(): Promise<void> }> {
  const log = deps.log ?? createLogger(config.logLevel);
  const store = await openServiceStore(config);
  const shutdown = new AbortController();
  const draining = new AbortController();
  // Every open event stream listens for shutdown.
  setMaxListeners(0, shutdown.signal);
  const clock = deps.clock ?? systemClock;
  const smtp = config.mail.smtpUrl ? createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from }) : undefined;
  const secretBox = createSecretBox(config.secrets.encryptionKey);
  const outbound = createOutbound({ allow: config.outboundAllow, ...(deps.outboundLookup ? { lookup: deps.outboundLookup } : {}) });
  // Environment sync_target reads the dev targets' metadata through the data plane, built below.
  const { executor } = store;
  const { knowledge, knowledgeLock } = await openKnowledge(config, { store, executor, clock, log, secretBox, outbound, data: () => core.data });
  const duckdbSql = await openDuckDbSql();
  const ops = await openOperations({ config, store, draining: draining.signal });
  const mailer = createMailQueue({ store: executor, clock, log, transport: deps.mailer ?? smtp });
  const core: CoreServices = {
    config,
    clock,
    store,
    executor,
    log,
    mailer,
    outbound,
    accountMail: createAccountMail(accountDeps({ executor, clock, config, secretBox, mailer, log })),
    secretBox,
    knowledge,
    data: dataDeps(config, { executor, clock, secretBox, checkHost: outbound.checkHost, duckdb: duckdbSql, docs: deps.tableDocs ?? createTableDocsSource(knowledge), observeQuery: ops.observeQuery }),
    uploads: createUploadStore({
      dataDir: config.dataDir,
      clock,
      limits: defaultUploadLimits({ fileBytes: config.uploadLimitBytes, chatBytes: config.uploadChatLimitBytes }),
    }),
    shutdown: shutdown.signal,
    draining: draining.signal,
    ops,
    oauth: createOAuthServer({ config, clock, executor, secretBox, log, outbound }),
    ...domainDeps(config, store, executor, clock, log),
    chatSources: { ...chatSourcesFrom(knowledge, executor), ...deps.chatSources },
  };
  const closeCore = async () => {
    await core.accountMail.close();
    mailer.close();
    smtp?.close();
    await duckdbSql.close();
    // Queries still running on file warehouses end now (their processes are killed), before the store closes.
    await core.data.queryProcesses.close();
    await ops.close();
    await knowledgeLock.close();
  };
  return { core, shutdown, draining, closeCore };
}

/** Knowledge under its cross-process write lock, with the branches a crash left damaged restored before anything reads or seeds them. */
async function openKnowledge(config: Config, a: { store: CoreServices['store']; executor: CoreServices['executor']; clock: Clock; log: Logger; secretBox: SecretBox; outbound: Outbound; data: () => DataDeps }) {
  const knowledgeLock = await knowledgeWriteLock(config);
  const knowledge = createKnowledgeDeps({
    store: a.executor,
    clock: a.clock,
    log: a.log,
    secretBox: a.secretBox,
    dataDir: config.dataDir,
    targetSync: targetMetadataReader(a.data),
    userName: async (userId) => (await getUser(a.executor, userId))?.name,
    productionThroughEnvironments: (orgId) => productionThroughEnvironments(a.executor, orgId),
    sharedLock: knowledgeLock.shared,
    outbound: a.outbound,
  });
  await checkKnowledgeRepositories(knowledge, { repair: true });
  return { knowledge, knowledgeLock };
}

/** How long the search indexer lets messages gather before one drain: more than a burst's starts take. */
const SEARCH_INDEX_SETTLE_MS = 250;

/** What the route tables hand to the domains, built once: their deps and the ports between them. */
function domainDeps(config: Config, store: CoreServices['store'], executor: CoreServices['executor'], clock: Clock, log: CoreServices['log']) {
  const searchIndex = createSearchIndexer(executor, {
    // A burst of questions is indexed once its answers have started (search-indexer.ts).
    settleMs: SEARCH_INDEX_SETTLE_MS,
    onError: (err) => {
      if (store.open) log.warn({ err }, 'indexing chat messages for search failed; the next write, search or tick retries');
    },
  });
  return {
    auth: { store: executor, clock, jwtKey: config.secrets.jwtKey },
    chats: { store: executor, clock, searchIndex, appends: messageWrites(executor) },
    usage: { store: executor, clock },
    rowSecurity: rowSecurityAdmin(executor),
    memberFacts: memberFactsPort(executor),
    ssoGroups: ssoGroupPort(executor),
  };
}

/** The data plane's dependencies, from the configuration. */
function dataDeps(config: Config, a: Pick<CoreServices, 'executor' | 'clock' | 'secretBox'> & { checkHost: DataDeps['checkHost']; duckdb: DuckDbSql; docs: TableDocsSource; observeQuery: DataDeps['observeQuery'] }): DataDeps {
  return {
    store: a.executor,
    clock: a.clock,
    secretBox: a.secretBox,
    tools: { duckdb: a.duckdb, maxRecursion: config.data.queryMaxRecursion },
    docs: a.docs,
    fileRoots: config.data.warehouseRoots,
    checkHost: a.checkHost,
    statementTimeoutMs: config.data.queryTimeoutMs,
    queryProcesses: new QueryProcessPool({ max: config.data.queryProcesses, maxIdle: config.data.queryIdleProcesses, memoryMb: config.data.queryMemoryMb }),
    maxRecursion: config.data.queryMaxRecursion,
    defaultRowLimit: config.data.queryRowLimit,
    observeQuery: a.observeQuery,
    // A dashboard opened by many viewers logs a query per tile and viewer, most of them in the turn
    // a shared execution ends: one commit for them all, each caller answered once it is written.
    logWrites: new CommitGroup(a.executor),
  };
}

/** The agent, the MCP tools, evaluations and the gated merge, on top of the core. */
async function wireDomains(core: CoreServices, deps: ServiceDeps): Promise<Services> {
  const { store, executor, clock, log, config, knowledge, shutdown } = core;
  // The agent reaches knowledge, data, chats and uploads only through its ports.
  const agentPorts: AgentPorts = { ...agentPortsFrom(core), ...deps.agentPorts?.(core) };
  const provider = deps.llmProvider ?? (await createProvider(config.agent, clock));
  // A new id per process: the runs it starts are its own, and a restart's runs are another replica's.
  const replicaId = newId();
  const agent = new AgentRuns({ store: executor, clock, log, config: config.agent, provider, ports: agentPorts, shutdown, observeRun: core.ops.observeRun, bus: core.ops.bus, replicaId, exclusiveStore: deps.exclusiveStore });
  // Stop and feedback for this replica's runs may come from the others from the first request on.
  await agent.ready();
  // MCP tools: the data plane answers catalog and run_query, knowledge answers search, the agent answers questions.
  const mcp: McpPorts = deps.mcpPorts ?? { ...dataMcpPorts(core.data), ...knowledgeMcpPort(knowledge), ...agentMcpPorts(agent) };
  // Evaluations ask the agent (knowledge pinned to a commit) and read definitions from knowledge, through their ports.
  const evaluations = new Evaluations({
    store: executor,
    clock,
    log,
    config: config.evaluations,
    // Questions in flight when the drain begins stay pending for the next start (or another replica).
    shutdown: AbortSignal.any([core.draining, shutdown]),
    ports: { knowledge: evaluationKnowledgePort(knowledge), agent: evaluationAgentPort(agent, knowledge), principals: evaluationPrincipalsPort(executor) },
  });
  watchQueues(core.ops, { store, agent, queryProcesses: core.data.queryProcesses });
  const imports = { store: executor, clock, knowledge: importKnowledgePort(knowledge), warehouse: importWarehousePort(core.data), memo: createRenderMemo() };
  // Suggestions offer only questions the model answers: the offline planner checks them (cached).
  const chatSources = { ...core.chatSources, suggestions: { ...questionCheck(knowledge, provider, clock), ...core.chatSources.suggestions } };
  const saved = { store: executor, clock, ports: savedPorts(core.chats, core.data) };
  const dashboards = { store: executor, clock, ports: dashboardPorts(saved, core.data, executor, clock) };
  const subscriptions = subscriptionDeps(core, saved, dashboards, replicaId);
  // A report mail given up for good is reported to its subscription's owner (once, never in a loop).
  core.mailer.onGiveUp(reportGivenUpMail(subscriptions));
  return { ...core, chatSources, agent, agentPorts, mcp, evaluations, mergeEnvironment: gatedMerge(knowledge, evaluations), imports, saved, dashboards, subscriptions };
}
