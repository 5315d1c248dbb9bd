// What saved questions read from other domains, declared here and implemented in src/compose.
import type { Principal } from '../auth/index.ts';
import type { ChartSpec } from './schemas.ts';

/** An answer's table as chats keep it. */
export interface AnswerToSave {
  chatId: string;
  messageUuid: string;
  dfKey: string | null;
  connectionId: string;
  sql: string;
  /** The Vega-Lite spec of the table's chart, when the answer drew one. */
  chart: ChartSpec | null;
  knowledgeCommit: string | null;
}

/** Which answer: a table by df_key, a message, or the chat's latest answer. */
export type AnswerRef = { dfKey: string } | { messageUuid: string } | { latest: true };

/** A governed query's rows. */
export interface GovernedRows {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  truncated: boolean;
}

export interface SavedPorts {
  /** An answer the caller may read (chats' rules), or NotFound. */
  answer(p: Principal, chatId: string, at: AnswerRef): Promise<AnswerToSave>;
  /**
   * Checks a statement kept to run later: the connection is the caller organization's (NotFound
   * otherwise) and the SQL guard accepts the statement (QueryRefused otherwise).
   */
  checkStatement(p: Principal, q: { connectionId: string; sql: string }): Promise<void>;
  /** Runs SQL through the governed pipeline (guard, governed sources, row security, limits) as `p`. */
  query(p: Principal, q: { environmentId: string | undefined; connectionId: string; sql: string; signal?: AbortSignal | undefined }): Promise<GovernedRows>;
}
