// What the agent needs from other domains, as small interfaces. The composition root wires the real
// modules (knowledge, data, chats, uploads); tests and `npm start` without them use the in-memory twins
// of ./memory-ports.ts. Every call that reads data carries the run's own Principal.
import type { Principal } from '../auth/index.ts';
import type { GovernedMetric } from '../shared/governed-metric.ts';

/** One column of a documented table (the knowledge YAML `columns` entry). */
export interface TableColumnDoc {
  name: string;
  type?: string;
  description?: string;
  synonyms?: string[];
  /** Values found in the data for one question (the offline model's value lookup), read as listed ones. */
  values?: string[];
}

/** A governed metric of a table (the knowledge YAML `metrics:` entry). */
export type MetricDoc = GovernedMetric;

/** The dates a table holds data for. */
export interface CoverageDoc {
  /** Default: the first metric's own time column. */
  column?: string;
  first: string;
  last: string;
}

/** A documented table (`tables/<connection>/<schema>.<table>.yaml`). */
export interface TableDocument {
  connection: string;
  schema: string;
  name: string;
  description?: string;
  columns: TableColumnDoc[];
  metrics?: MetricDoc[];
  coverage?: CoverageDoc;
  /** What the table is built from, when an import recorded it (dbt's `depends_on`: node ids such as `model.shop.stg_orders`). */
  upstream?: string[];
}

/** A `relationships/<id>.yaml` file. */
export interface RelationshipDocument {
  id: string;
  from: { connection: string; schema: string; table: string; column: string };
  to: { connection: string; schema: string; table: string; column: string };
  kind: 'many_to_one' | 'one_to_one' | 'one_to_many';
  description?: string;
}

export type KnowledgeKind = 'table' | 'relationship' | 'note' | 'report' | 'skill';

/** One ranked search hit; `table`/`relationship` carry the parsed file for those kinds. */
export interface KnowledgeHit {
  kind: KnowledgeKind;
  /** Repository path, e.g. `tables/demo_warehouse/main.orders.yaml`. */
  path: string;
  title: string;
  /** Text shown to the model (description, note body, skill instructions, report SQL...). */
  text: string;
  score: number;
  table?: TableDocument;
  relationship?: RelationshipDocument;
}

export interface KnowledgeSearchResult {
  /** The commit of the environment's branch the search read. */
  commit: string;
  items: KnowledgeHit[];
}

/**
 * Knowledge at an environment (undefined = production). Inactive tables are never returned.
 * Throws NotFound (kind not_found) for an environment the principal may not use. `at`: the commit
 * a run is pinned to (the first it read), so one answer reads one version of the knowledge.
 */
export interface KnowledgeSource {
  /** Ranked search over tables, relationships, notes, skills and reports; best first. */
  search(principal: Principal, environmentId: string | undefined, query: string, limit: number, at?: string): Promise<KnowledgeSearchResult>;
  /** One active table by connection and `schema.table` or `table`; undefined when unknown. */
  getTable(principal: Principal, environmentId: string | undefined, connectionId: string, table: string, at?: string): Promise<TableDocument | undefined>;
  /** Every relationship touching the given tables (all when `tables` is empty). */
  relationships(principal: Principal, environmentId: string | undefined, tables: { connection: string; schema: string; name: string }[], at?: string): Promise<RelationshipDocument[]>;
  /** Name of an environment for chat tags; undefined for production. */
  environmentName(principal: Principal, environmentId: string | undefined): Promise<string | undefined>;
  /** Creates the throwaway environment of a quick-fix session started from production. */
  startQuickFix(principal: Principal): Promise<{ id: string; name: string }>;
}

export interface QueryRequest {
  /** Whose permissions apply: row-level security and governance follow this principal. */
  principal: Principal;
  environmentId: string | undefined;
  connectionId: string;
  sql: string;
  /** Rows to return at most; `truncated` tells when more existed. */
  rowLimit: number;
  signal?: AbortSignal;
  /** The commit the run is pinned to: governance (row filters, governed sources) reads the knowledge there. */
  knowledgeCommit?: string | undefined;
}

export interface QueryResult {
  columns: { name: string; type: string }[];
  /** JSON-friendly values (decimals, dates and big integers may be strings). */
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  executionMs: number;
  /** Warehouse dialect (duckdb, postgresql, mysql, sqlite), recorded with the answer for lineage. */
  dialect: string;
  /** The documented tables the query read (`schema.table`), whose governed metrics say how to show its columns. */
  tables?: string[];
}

/**
 * Governed queries (guard -> row-level security -> environment targets -> driver). Failures are
 * AppErrors (QueryRefused, QueryFailed, ConnectionNotFound...); the agent returns their message and
 * code to the model so it can correct itself.
 */
export interface QueryRunner {
  run(req: QueryRequest): Promise<QueryResult>;
}

/** Read-only SQL over the files uploaded to a chat (each file a table named after it). */
export interface UploadsQuery {
  /** Uploaded files of the chat, with the table name the SQL uses. */
  list(principal: Principal, chatId: string): Promise<{ fileId: string; name: string; table: string }[]>;
  /** `signal`: the run was cancelled or its client went away; the query is stopped. */
  run(principal: Principal, chatId: string, sql: string, rowLimit: number, signal?: AbortSignal): Promise<QueryResult>;
}

/** What an answer produced, in the chats module's `Answer` shape (snake_case as stored). */
export interface AnswerRecord {
  sql?: string;
  connection_id?: string;
  dialect?: string;
  tables: { df_key: string; title?: string; sql: string; connection_id: string; dialect: string; columns: string[]; row_count?: number; preview?: unknown[][] }[];
  charts: { chart_id: string; df_key?: string; type: string; spec: unknown }[];
}

/**
 * How the agent writes into chats (src/chats: appendMessage / recordAnswer). A chat of another user
 * answers NotFound (ChatNotFound), which the routes pass on as 404. Each write is a transaction of its
 * own on the chats' store (SQLite or PostgreSQL), apart from the run's bookkeeping.
 */
export interface ChatRecorder {
  /**
   * Records the question, creating the chat when new (tagged with the environment; `hidden` keeps a new
   * chat out of the user's history and search); another user's chat is ChatNotFound. Resolves with
   * the question's position in the chat: 0 when it is the chat's first message (no history before it).
   */
  recordUserMessage(principal: Principal, input: { chatId: string; content: string; messageUuid: string; environment?: { id: string; name: string }; hidden?: boolean }): Promise<{ position: number }>;
  recordAnswer(
    principal: Principal,
    input: {
      chatId: string;
      content: string;
      messageUuid: string;
      answer: AnswerRecord;
      credits: number;
      knowledgeCommit?: string;
      knowledgeItems: { kind: string; path: string }[];
    },
  ): Promise<void>;
  /**
   * Earlier question/answer pairs of the chat, oldest first, for the model's memory of the conversation;
   * `without`: the uuid of a message left out (the question a run answers, recorded before it reads them).
   */
  history(principal: Principal, chatId: string, options?: { without?: string }): Promise<{ role: 'user' | 'assistant'; content: string }[]>;
}

/** The user's profile for the model's context: name, Background (slack_title) and saved memories. */
export interface ProfileSource {
  profile(principal: Principal): Promise<{ name: string; background: string; memories: string[] }>;
}

/** All ports of the agent. */
export interface AgentPorts {
  knowledge: KnowledgeSource;
  queries: QueryRunner;
  uploads: UploadsQuery;
  chats: ChatRecorder;
  profiles: ProfileSource;
}
