// The services object the gateway receives: built by create-services.ts, the one place that wires domains.
import type { ChatDeps, ChatSources, SearchIndexer } from '../chats/index.ts';
import type { AuthDeps } from '../auth/index.ts';
import type { RowSecurityAdmin } from './row-security-members.ts';
import type { MemberFacts } from '../auth/members/index.ts';
import type { AgentRuns, UsageDeps } from '../agent/index.ts';
import type { AccountMail } from '../auth/account/account-mail.ts';
import type { AgentPorts } from '../agent/ports.ts';
import type { Clock } from '../clock.ts';
import type { GatedMerge } from './merge-gate.ts';
import type { SsoGroupPort } from '../auth/sso/group-mappings.ts';
import type { Evaluations } from '../evaluations/index.ts';
import type { Config } from '../config.ts';
import type { KnowledgeDeps } from '../knowledge/index.ts';
import type { ImportDeps } from '../imports/dbt/index.ts';
import type { DataDeps } from '../data/deps.ts';
import type { UploadStore } from '../data/uploads/index.ts';
import type { Logger } from '../log.ts';
import type { MailQueue } from '../mail/index.ts';
import type { McpPorts } from '../mcp/ports.ts';
import type { Operations } from './operations.ts';
import type { SecretBox } from '../security/index.ts';
import type { Executor, ServiceStore } from '../store/index.ts';
import type { OAuthServer } from '../auth/oauth/create-provider.ts';
import type { Outbound } from '../outbound/index.ts';
import type { SavedDeps } from '../saved/index.ts';
import type { DashboardDeps } from '../dashboards/index.ts';
import type { SubscriptionDeps } from '../subscriptions/index.ts';

/** Everything the composition root wires together and hands to the route tables. */
export interface Services {
  config: Config;
  clock: Clock;
  /** The service database, SQLite or PostgreSQL: its health, metrics and closing (domains use `executor`). */
  store: ServiceStore;
  /** The store every domain runs on (`store.executor`). */
  executor: Executor;
  log: Logger;
  secretBox: SecretBox;
  /** Outgoing mail: the outbox queue, delivered over SMTP when a server is configured. */
  mailer: MailQueue;
  /** The one guarded HTTP client for requests made on a user's behalf (SEXTANT_OUTBOUND_ALLOW). */
  outbound: Outbound;
  /** Sign-in link, reset and verification mail requests: queued alike for every address, mailed after the answer. */
  accountMail: AccountMail;
  /** Knowledge repositories, environments and mirroring. */
  knowledge: KnowledgeDeps;
  /** The data plane: connections, guard, row-level security, governed queries, table docs. */
  data: DataDeps;
  /** Chat uploads (files and extracted archives per chat session). */
  uploads: UploadStore;
  /** Aborted when the service shuts down, so long-lived streams can end cleanly. */
  shutdown: AbortSignal;
  /** Aborted when the graceful shutdown begins: readiness answers 503, no new run or evaluation question starts. */
  draining: AbortSignal;
  /** Metrics and readiness (src/ops). */
  ops: Operations;
  /** The OAuth 2.1 authorization server for MCP clients (mounted at /oauth). */
  oauth: OAuthServer;
  /** What the MCP tools use: catalog, agent runs, results, knowledge search, governed queries. */
  mcp: McpPorts;
  /** What credentials, sessions and tokens are checked and signed with (database, clock, JWT key). */
  auth: AuthDeps;
  /** What chat operations need (the service database behind its executor, the clock, the search indexer), built once here. */
  chats: ChatDeps & { searchIndex: SearchIndexer };
  /** What the admin's usage report and credit limits need (the database and the clock), built once here. */
  usage: UsageDeps;
  /** Row-security facts of members (admin), with auth's membership check. */
  rowSecurity: RowSecurityAdmin;
  /** Members' attributes and groups (kept by src/data) as the admin member pages read and write them. */
  memberFacts: MemberFacts;
  /** What chats read from other domains: SQL lineage (src/data) and suggestion sources (knowledge). */
  chatSources: ChatSources;
  /** What SSO sign-ins use to set row-level-security groups from the identity provider's groups. */
  ssoGroups: SsoGroupPort;
  /** The agent's runs (start, follow, feedback, stop) and the ports it reads data through. */
  agent: AgentRuns;
  agentPorts: AgentPorts;
  /** Evaluation runs, scoring, comparison and the environment diff. */
  evaluations: Evaluations;
  /** Merging an environment into production, behind the organization's evaluation gate. */
  mergeEnvironment: GatedMerge;
  /** Imports of other tools' artifacts (dbt) into environments. */
  imports: ImportDeps;
  /** Saved questions: answers kept under a title and run again as the viewer. */
  saved: SavedDeps;
  dashboards: DashboardDeps;
  /** Subscriptions and alerts: reports sent on a schedule by mail and webhook (the scheduler runs in app.ts). */
  subscriptions: SubscriptionDeps;
}

/** The services the agent's ports are built from (everything but the agent itself). */
export type CoreServices = Omit<Services, 'agent' | 'agentPorts' | 'mcp' | 'evaluations' | 'mergeEnvironment' | 'imports' | 'saved' | 'dashboards' | 'subscriptions'>;
