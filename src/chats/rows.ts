// Row shapes of the chat tables, the access checks every operation starts with, and the mapping
// from rows to the API records.
import { sql, type RawBuilder } from 'kysely';
import { hasRole, type Principal } from '../auth/index.ts';
import type { Clock } from '../clock.ts';
import { onPostgres, type CommitGroup, type Executor } from '../store/index.ts';
import { ChatNotFound, MessageNotFound } from './errors.ts';
import type { SearchIndexer } from './search-indexer.ts';
import type { Answer, ChatMessage, ChatSummary, KnowledgeItem, MessageRole } from './schemas.ts';

/** What the reads need: the service database behind its executor. */
export interface ChatStore {
  store: Executor;
}

/** What chat operations need: the store and the clock. */
export interface ChatDeps extends ChatStore {
  clock: Clock;
  /** Told of every message written, so that the search index keeps up (the service's; without it the queue waits for a search or the next tick). */
  searchIndex?: SearchIndexer;
  /**
   * Where messages are written: the service's group commit, so that the questions of a burst share
   * their commits (the append was the largest step of a run's start in a profile, mostly its own commit); the store
   * alone, a commit per message, without it.
   */
  appends?: CommitGroup;
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

// The chat's columns and its labels, sorted, as a JSON array in text (`labels_json`, what toSummary
// parses): the one statement spelled per dialect. Sorted by their bytes on both: PostgreSQL's own
// collation would put `apple` before `Banana` where SQLite puts it after (store/dialect.ts).
const SQLITE_COLUMNS = sql.raw(`c.*, (SELECT json_group_array(label) FROM (SELECT label FROM chat_labels l WHERE l.chat_pk = c.id ORDER BY label)) AS labels_json`);
const POSTGRES_COLUMNS = sql`c.*, (SELECT coalesce(json_agg(label ORDER BY label COLLATE "C")::text, '[]') FROM chat_labels l WHERE l.chat_pk = c.id) AS labels_json`;

/** The columns of `chats c` with its labels, in the executor's dialect. */
export function chatColumns(x: Executor): RawBuilder<unknown> {
  return onPostgres(x) ? POSTGRES_COLUMNS : SQLITE_COLUMNS;
}

export type ChatRowWithLabels = ChatRow & { labels_json: string };

export function findChat(x: Executor, orgId: string, chatId: string): Promise<ChatRowWithLabels | undefined> {
  return x.one(sql<ChatRowWithLabels>`SELECT ${chatColumns(x)} FROM chats c WHERE c.org_id = ${orgId} AND c.chat_id = ${chatId}`);
}

/** The caller's own chat in the current organization, or ChatNotFound: only the owner changes a chat. */
export async function ownChat(x: Executor, principal: Principal, chatId: string): Promise<ChatRowWithLabels> {
  const chat = await findChat(x, principal.orgId, chatId);
  if (!chat || chat.user_id !== principal.userId) throw new ChatNotFound();
  return chat;
}

/** A chat the caller may read: their own, or any chat of the organization for admins and modelers. */
export async function readableChat(x: Executor, principal: Principal, chatId: string): Promise<ChatRowWithLabels> {
  const chat = await findChat(x, principal.orgId, chatId);
  if (!chat || (chat.user_id !== principal.userId && !hasRole(principal, 'modeler'))) throw new ChatNotFound();
  return chat;
}

export async function findMessage(x: Executor, chatPk: number, messageUuid: string): Promise<MessageRow> {
  const row = await x.one(sql<MessageRow>`SELECT * FROM chat_messages WHERE chat_pk = ${chatPk} AND message_uuid = ${messageUuid}`);
  if (!row) throw new MessageNotFound();
  return row;
}

/** The condition of a statement on the caller's own chat: owner and organization checked in SQL. */
export function ownedBy(principal: Principal, chatId: string): RawBuilder<unknown> {
  return sql`org_id = ${principal.orgId} AND chat_id = ${chatId} AND user_id = ${principal.userId}`;
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
