// Row shapes of the chat tables, the access checks every operation starts with, and the mapping
// from rows to the API records.
import { hasRole, type Principal } from '../auth/index.ts';
import type { Clock } from '../clock.ts';
import { statement, type Db, type Executor } from '../store/index.ts';
import { ChatNotFound, MessageNotFound } from './errors.ts';
import type { Answer, ChatMessage, ChatSummary, KnowledgeItem, MessageRole } from './schemas.ts';

/** What chat operations need: the database and the clock. */
export interface ChatDeps {
  db: Db;
  clock: Clock;
}

/** What the operations moved to the asynchronous store need (history and search): the service database behind its executor. */
export interface ChatStore {
  store: Executor;
}

export interface ChatRow {
  id: number;
  org_id: string;
  chat_id: string;
  user_id: string;
  title: string;
  agentic: number;
  environment_id: string | null;
  environment_name: string | null;
  pinned_at: number | null;
  archived_at: number | null;
  recently_completed: number;
  /** 1 for chats left out of history and search (evaluation answers). */
  hidden: number;
  created_at: number;
  updated_at: number;
}

export interface MessageRow {
  id: number;
  chat_pk: number;
  message_uuid: string;
  role: MessageRole;
  content: string;
  position: number;
  displayed: number;
  answer: string | null;
  credits: number | null;
  copied_from_chat_id: string | null;
  knowledge_commit: string | null;
  knowledge_items: string | null;
  created_at: number;
}

/** Selects chat columns plus its labels as a JSON array (`labels_json`). */
export const CHAT_COLUMNS = `c.*, (SELECT json_group_array(label) FROM (SELECT label FROM chat_labels l WHERE l.chat_pk = c.id ORDER BY label)) AS labels_json`;

export type ChatRowWithLabels = ChatRow & { labels_json: string };

export function findChat(db: Db, orgId: string, chatId: string): ChatRowWithLabels | undefined {
  return statement(db, `SELECT ${CHAT_COLUMNS} FROM chats c WHERE c.org_id = ? AND c.chat_id = ?`).get(orgId, chatId) as ChatRowWithLabels | undefined;
}

/** The caller's own chat in the current organization, or ChatNotFound: only the owner changes a chat. */
export function ownChat(db: Db, principal: Principal, chatId: string): ChatRowWithLabels {
  const chat = findChat(db, principal.orgId, chatId);
  if (!chat || chat.user_id !== principal.userId) throw new ChatNotFound();
  return chat;
}

/** A chat the caller may read: their own, or any chat of the organization for admins and modelers. */
export function readableChat(db: Db, principal: Principal, chatId: string): ChatRowWithLabels {
  const chat = findChat(db, principal.orgId, chatId);
  if (!chat || (chat.user_id !== principal.userId && !hasRole(principal, 'modeler'))) throw new ChatNotFound();
  return chat;
}

export function findMessage(db: Db, chatPk: number, messageUuid: string): MessageRow {
  const row = db.prepare('SELECT * FROM chat_messages WHERE chat_pk = ? AND message_uuid = ?').get(chatPk, messageUuid) as MessageRow | undefined;
  if (!row) throw new MessageNotFound();
  return row;
}

/** Marks a chat as changed now. */
export function touchChat(deps: ChatDeps, chatPk: number): void {
  deps.db.prepare('UPDATE chats SET updated_at = ? WHERE id = ?').run(deps.clock.now(), chatPk);
}

export function toSummary(row: ChatRowWithLabels): ChatSummary {
  return {
    chat_id: row.chat_id,
    title: row.title,
    agentic: row.agentic === 1,
    pinned: row.pinned_at !== null,
    archived: row.archived_at !== null,
    labels: JSON.parse(row.labels_json) as string[],
    recently_completed: row.recently_completed === 1,
    environment: row.environment_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMessage(row: MessageRow): ChatMessage {
  return {
    message_uuid: row.message_uuid,
    role: row.role,
    content: row.content,
    position: row.position,
    displayed: row.displayed === 1,
    created_at: row.created_at,
    answer: row.answer === null ? null : (JSON.parse(row.answer) as Answer),
    credits: row.credits,
    copied_from_chat_id: row.copied_from_chat_id,
    knowledge_commit: row.knowledge_commit,
    knowledge_items: row.knowledge_items === null ? [] : (JSON.parse(row.knowledge_items) as KnowledgeItem[]),
  };
}
