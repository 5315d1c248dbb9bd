// Finds the query behind a download: by message (uuid or position) for download_big_csv and
// download_excel, by df_key for their agentic twins. Same access as loading the chat; downloads
// also reach shared chats through findDownloadSource (download-access.ts).
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { NotFound } from '../errors.ts';
import { MessageNotFound } from './errors.ts';
import { readableChat, toMessage, type ChatStore, type MessageRow } from './rows.ts';
import type { ChatMessage } from './schemas.ts';

export interface AnswerSource {
  chat_id: string;
  /** The chat's title, for names people read (download files). */
  title: string;
  message: ChatMessage;
  /** The query to re-run and where: the table's for a df_key, else the answer's main query. */
  sql: string;
  connection_id: string;
  dialect: string | undefined;
  df_key: string | undefined;
}

/** Which answer: a message by uuid or position, an answer table by df_key, or the chat's latest answer with a query. */
export type AnswerLocator = { messageUuid: string } | { messagePosition: number } | { dfKey: string } | { latest: true };

/** The SQL and connection of an answer the caller may read, or NotFound. */
export async function findAnswerSource(deps: ChatStore, principal: Principal, chatId: string, at: AnswerLocator): Promise<AnswerSource> {
  const chat = await readableChat(deps.store, principal, chatId);
  return answerIn(deps, { pk: chat.id, chatId: chat.chat_id, title: chat.title }, at);
}

/** Where to look: a chat (access already checked) and, for shares, the only messages visible. */
export interface AnswerScope {
  pk: number;
  /** The chat_id reported back (a shared message's share id for message shares). */
  chatId: string;
  title: string;
  /** Message ids (row ids) the caller may read; undefined = the whole chat. */
  visible?: ReadonlySet<number>;
}

/** The answer source inside one chat; the core of findAnswerSource and findDownloadSource. */
export async function answerIn(deps: ChatStore, scope: AnswerScope, at: AnswerLocator): Promise<AnswerSource> {
  const which =
    'messageUuid' in at
      ? sql`AND message_uuid = ${at.messageUuid}`
      : 'messagePosition' in at
        ? sql`AND position = ${at.messagePosition}`
        : sql`AND answer IS NOT NULL ORDER BY position DESC`;
  const all = await deps.store.all(sql<MessageRow>`SELECT * FROM chat_messages WHERE chat_pk = ${scope.pk} ${which}`);
  const rows = scope.visible ? all.filter((r) => scope.visible!.has(r.id)) : all;
  for (const row of rows) {
    const message = toMessage(row);
    const answer = message.answer;
    if (!answer) continue;
    if ('dfKey' in at) {
      const table = answer.tables.find((t) => t.df_key === at.dfKey);
      if (table) return { chat_id: scope.chatId, title: scope.title, message, sql: table.sql, connection_id: table.connection_id, dialect: table.dialect, df_key: table.df_key };
      continue;
    }
    const first = answer.tables[0];
    const sql = answer.sql ?? first?.sql;
    const connection = answer.connection_id ?? first?.connection_id;
    if (sql && connection) return { chat_id: scope.chatId, title: scope.title, message, sql, connection_id: connection, dialect: answer.dialect ?? first?.dialect, df_key: answer.sql ? undefined : first?.df_key };
  }
  if ('dfKey' in at) throw new NotFound('No answer table with this df_key', 'DF_KEY_NOT_FOUND');
  throw new MessageNotFound();
}
