// Finds the query behind a download: by message (uuid or position) for download_big_csv and
// download_excel, by df_key for their agentic twins. Same access as loading the chat.
import type { Principal } from '../auth/index.ts';
import { NotFound } from '../errors.ts';
import { MessageNotFound } from './errors.ts';
import { readableChat, toMessage, type ChatDeps, type MessageRow } from './rows.ts';
import type { ChatMessage } from './schemas.ts';

export interface AnswerSource {
  chat_id: string;
  message: ChatMessage;
  /** The query to re-run and where: the table's for a df_key, else the answer's main query. */
  sql: string;
  connection_id: string;
  dialect: string | undefined;
  df_key: string | undefined;
}

export type AnswerLocator = { messageUuid: string } | { messagePosition: number } | { dfKey: string };

/** The SQL and connection of an answer the caller may read, or NotFound. */
export function findAnswerSource(deps: ChatDeps, principal: Principal, chatId: string, at: AnswerLocator): AnswerSource {
  const chat = readableChat(deps.db, principal, chatId);
  const rows =
    'messageUuid' in at
      ? (deps.db.prepare('SELECT * FROM chat_messages WHERE chat_pk = ? AND message_uuid = ?').all(chat.id, at.messageUuid) as MessageRow[])
      : 'messagePosition' in at
        ? (deps.db.prepare('SELECT * FROM chat_messages WHERE chat_pk = ? AND position = ?').all(chat.id, at.messagePosition) as MessageRow[])
        : (deps.db.prepare(`SELECT * FROM chat_messages WHERE chat_pk = ? AND answer IS NOT NULL ORDER BY position DESC`).all(chat.id) as MessageRow[]);
  for (const row of rows) {
    const message = toMessage(row);
    const answer = message.answer;
    if (!answer) continue;
    if ('dfKey' in at) {
      const table = answer.tables.find((t) => t.df_key === at.dfKey);
      if (table) return { chat_id: chat.chat_id, message, sql: table.sql, connection_id: table.connection_id, dialect: table.dialect, df_key: table.df_key };
      continue;
    }
    const first = answer.tables[0];
    const sql = answer.sql ?? first?.sql;
    const connection = answer.connection_id ?? first?.connection_id;
    if (sql && connection) return { chat_id: chat.chat_id, message, sql, connection_id: connection, dialect: answer.dialect ?? first?.dialect, df_key: answer.sql ? undefined : first?.df_key };
  }
  if ('dfKey' in at) throw new NotFound('No answer table with this df_key', 'DF_KEY_NOT_FOUND');
  throw new MessageNotFound();
}
