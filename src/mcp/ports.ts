// What the MCP tools need from the rest of the service. The tools know only these interfaces; the
// composition root wires them to the data plane, the agent, chats and knowledge. Every method acts
// as the given Principal: organization and user scope, role and row-level security are the
// implementation's job, and every query it runs is logged like any other.
import type { Principal } from '../auth/index.ts';
import type { GovernedMetric } from '../shared/governed-metric.ts';

export interface CatalogConnection {
  id: string;
  type: string;
  name: string;
}

/** A governed metric of a table (the knowledge YAML `metrics:` entry). */
export type CatalogMetric = GovernedMetric;

export interface CatalogTable {
  connection: string;
  schema: string;
  name: string;
  description: string;
  columns: { name: string; type?: string; description?: string }[];
  metrics: CatalogMetric[];
  /** First and last day with data, when documented. */
  coverage?: { first: string; last: string };
  /** Successful queries that read it. */
  query_count: number;
}

/** Instant: no model call. Every active documented table (at most 50), the most used first. */
export interface Catalog {
  capabilities: string[];
  connections: CatalogConnection[];
  tables: CatalogTable[];
}

export interface ResultTable {
  /** The table's title as a person reads it (never the internal df_key). */
  name: string;
  columns: string[];
  rows: unknown[][];
  /** The query that produced it. */
  sql?: string;
}

/** A query the answer ran, whether it worked or not. */
export interface ResultQuery {
  connectionId: string;
  sql: string;
  ok: boolean;
}

export interface ResultChart {
  title: string;
  /** A rendered image, when the agent produced one. */
  png?: string;
  /** The chart's specification (for example Vega-Lite), when there is one. */
  spec?: unknown;
}

/** State of the latest answer of a chat. */
export type ChatResult =
  | { status: 'completed'; chatId: string; answer: string; tables: ResultTable[]; charts: ResultChart[]; queries?: ResultQuery[] }
  | { status: 'running'; chatId: string; progress?: string }
  | { status: 'failed'; chatId: string; error: string }
  | { status: 'not_found'; chatId: string };

export interface KnowledgeHit {
  kind: 'table' | 'note' | 'relationship' | 'report' | 'skill';
  id: string;
  title: string;
  snippet: string;
}

export interface QueryResult {
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  executionMs: number;
}

export interface McpPorts {
  /** Connections and the documented tables the principal may see, most used first. */
  catalog(principal: Principal): Promise<Catalog>;
  /** Starts an agent run (a new chat, or continues `chatId`) and returns at once. */
  askQuestion(principal: Principal, input: { question: string; chatId?: string }): Promise<{ chatId: string }>;
  /** The latest answer of one of the principal's chats; `not_found` for any other chat. */
  getResult(principal: Principal, chatId: string): Promise<ChatResult>;
  /** Searches documentation, notes, relationships, reports and skills (production knowledge). */
  searchKnowledge(principal: Principal, input: { query: string; limit: number }): Promise<KnowledgeHit[]>;
  /**
   * Runs one read-only query through the guard and row-level security, logged. `governedOnly` is
   * set for modelers, who may only query governed sources.
   */
  /** `signal` aborts when the client cancels the call or goes away: the query stops in the warehouse. */
  runQuery(principal: Principal, input: { connectionId: string; sql: string; rowLimit: number; governedOnly: boolean; signal?: AbortSignal }): Promise<QueryResult>;
}
