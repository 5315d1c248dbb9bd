// Lineage of an answer: which connections, tables and columns its queries read. The SQL analysis
// itself belongs to src/data (lineage library); it is injected as a function so this module stays
// independent of it.
import type { Principal } from '../auth/index.ts';
import { NotFound } from '../errors.ts';
import { findMessage, readableChat, toMessage, type ChatStore } from './rows.ts';
import type { Answer } from './schemas.ts';

export interface ColumnRef {
  schema?: string;
  table: string;
  column: string;
}

/** Lineage of one output column of a query. */
export interface ColumnLineage {
  column: string;
  sources: ColumnRef[];
}

/** What the injected analysis returns for one query. */
export interface QueryLineage {
  tables: { schema?: string; table: string }[];
  columns: ColumnLineage[];
}

/** The injected analysis: parses `sql` in `dialect` and traces its output columns. */
export type LineageFn = (sql: string, dialect: string) => Promise<QueryLineage> | QueryLineage;

/** One query of an answer, identified by its df_key (or `main` for the answer's own SQL). */
export interface AnswerQuery {
  query_id: string;
  sql: string;
  connection_id: string;
  dialect: string;
}

export interface MessageLineage {
  message_id: string;
  connections: string[];
  queries: (AnswerQuery & QueryLineage)[];
}

/** The queries recorded on an answer: its main SQL, then each table's. */
export function answerQueries(answer: Answer | null): AnswerQuery[] {
  if (!answer) return [];
  const out: AnswerQuery[] = [];
  if (answer.sql && answer.connection_id) out.push({ query_id: 'main', sql: answer.sql, connection_id: answer.connection_id, dialect: answer.dialect ?? 'postgresql' });
  for (const t of answer.tables) {
    if (!out.some((q) => q.sql === t.sql && q.connection_id === t.connection_id)) out.push({ query_id: t.df_key, sql: t.sql, connection_id: t.connection_id, dialect: t.dialect });
  }
  return out;
}

async function answerOf(deps: ChatStore, principal: Principal, chatId: string, messageId: string) {
  const chat = await readableChat(deps.store, principal, chatId);
  return toMessage(await findMessage(deps.store, chat.id, messageId));
}

/** Lineage of every query of an answer (same access as loading the chat). */
export async function messageLineage(deps: ChatStore, lineage: LineageFn, principal: Principal, chatId: string, messageId: string): Promise<MessageLineage> {
  const message = await answerOf(deps, principal, chatId, messageId);
  const queries = answerQueries(message.answer);
  const traced = await Promise.all(queries.map(async (q) => ({ ...q, ...(await lineage(q.sql, q.dialect)) })));
  return { message_id: message.message_uuid, connections: [...new Set(queries.map((q) => q.connection_id))], queries: traced };
}

/** Traces one output column of one query of an answer (`query` is a query_id or the query's SQL). */
export async function columnLineage(
  deps: ChatStore,
  lineage: LineageFn,
  principal: Principal,
  { chatId, messageId, query, column }: { chatId: string; messageId: string; query: string; column: string },
): Promise<ColumnLineage & { query_id: string; connection_id: string }> {
  const message = await answerOf(deps, principal, chatId, messageId);
  const q = answerQueries(message.answer).find((x) => x.query_id === query || x.sql === query);
  if (!q) throw new NotFound('Query not found in this answer', 'QUERY_NOT_FOUND');
  const result = await lineage(q.sql, q.dialect);
  const found = result.columns.find((c) => c.column === column) ?? result.columns.find((c) => c.column.toLowerCase() === column.toLowerCase());
  if (!found) throw new NotFound('Column not found in the query output', 'COLUMN_NOT_FOUND');
  return { ...found, query_id: q.query_id, connection_id: q.connection_id };
}
