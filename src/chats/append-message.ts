// How the agent (and the plain query flow) writes into chats: ensureChat, appendMessage, recordAnswer.
// Nothing else writes messages, so the title, the full-text index and recently_completed stay right.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import { statement, transact } from '../store/index.ts';
import { ChatNotFound } from './errors.ts';
import { findChat, toMessage, type ChatDeps, type ChatRowWithLabels, type MessageRow } from './rows.ts';
import { Answer, type AnswerInput, type ChatMessage, type KnowledgeItem, type MessageRole } from './schemas.ts';

export interface EnsureChatInput {
  chatId: string;
  title?: string;
  agentic?: boolean;
  /** The environment the chat runs in; its name becomes the chat's environment tag. */
  environment?: { id: string; name: string };
  /** A new chat left out of the user's history and search (evaluation answers); it opens by id. */
  hidden?: boolean;
}

const TITLE_MAX = 120;

/** Returns the caller's chat, creating it when new; another user's chat_id answers ChatNotFound. */
export function ensureChat(deps: ChatDeps, principal: Principal, input: EnsureChatInput): ChatRowWithLabels {
  if (input.chatId.length === 0 || input.chatId.length > 200) {
    throw new ValidationFailed([{ loc: ['body', 'chat_id'], msg: 'chat_id must have 1 to 200 characters', type: 'value_error' }]);
  }
  const existing = findChat(deps.db, principal.orgId, input.chatId);
  if (existing) {
    if (existing.user_id !== principal.userId) throw new ChatNotFound();
    return existing;
  }
  const now = deps.clock.now();
  statement(
    deps.db,
    `INSERT INTO chats (org_id, chat_id, user_id, title, agentic, environment_id, environment_name, hidden, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(principal.orgId, input.chatId, principal.userId, (input.title ?? '').slice(0, TITLE_MAX), input.agentic === false ? 0 : 1, input.environment?.id ?? null, input.environment?.name ?? null, input.hidden ? 1 : 0, now, now);
  return findChat(deps.db, principal.orgId, input.chatId)!;
}

export interface AppendMessageInput extends EnsureChatInput {
  role: MessageRole;
  content: string;
  /** Chosen by the caller when it already named the message (e.g. in stream events); else a UUID. */
  messageUuid?: string;
  /** False for context the agent keeps but people never see. */
  displayed?: boolean;
}

/** Appends a message at the end of the chat (creating the chat if needed). */
export function appendMessage(deps: ChatDeps, principal: Principal, input: AppendMessageInput): ChatMessage {
  return transact(deps.db, () => {
    const chat = ensureChat(deps, principal, input);
    const row = insertMessage(deps, chat, input, {});
    if (input.role === 'user' && chat.title === '') {
      statement(deps.db, 'UPDATE chats SET title = ? WHERE id = ?').run(titleFrom(input.content), chat.id);
    }
    return toMessage(row);
  });
}

export interface RecordAnswerInput extends EnsureChatInput {
  content: string;
  messageUuid?: string;
  answer?: AnswerInput;
  /** Cost of the answer (the `completed` event's credits); exclusive with copiedFromChatId. */
  credits?: number;
  /** Set instead of credits when the answer was copied from another chat. */
  copiedFromChatId?: string;
  /** The knowledge commit the answer was built from, and the items it used. */
  knowledgeCommit?: string;
  knowledgeItems?: KnowledgeItem[];
  displayed?: boolean;
}

/** Records the assistant's answer and marks the chat recently completed. */
export function recordAnswer(deps: ChatDeps, principal: Principal, input: RecordAnswerInput): ChatMessage {
  if (input.credits !== undefined && input.copiedFromChatId !== undefined) {
    throw new ValidationFailed([{ loc: ['body', 'credits'], msg: 'credits and copied_from_chat_id are exclusive', type: 'value_error' }]);
  }
  const answer = input.answer === undefined ? undefined : Answer.parse(input.answer);
  return transact(deps.db, () => {
    const chat = ensureChat(deps, principal, input);
    const row = insertMessage(deps, chat, { ...input, role: 'assistant' }, {
      answer: answer === undefined ? null : JSON.stringify(answer),
      credits: input.credits ?? null,
      copied_from_chat_id: input.copiedFromChatId ?? null,
      knowledge_commit: input.knowledgeCommit ?? null,
      knowledge_items: input.knowledgeItems === undefined ? null : JSON.stringify(input.knowledgeItems),
    });
    statement(deps.db, 'UPDATE chats SET recently_completed = 1 WHERE id = ?').run(chat.id);
    return toMessage(row);
  });
}

type AnswerColumns = Partial<Pick<MessageRow, 'answer' | 'credits' | 'copied_from_chat_id' | 'knowledge_commit' | 'knowledge_items'>>;

function insertMessage(deps: ChatDeps, chat: ChatRowWithLabels, input: Pick<AppendMessageInput, 'role' | 'content' | 'messageUuid' | 'displayed'>, extra: AnswerColumns): MessageRow {
  const now = deps.clock.now();
  const uuid = input.messageUuid ?? randomUUID();
  const next = statement(deps.db, 'SELECT COALESCE(MAX(position) + 1, 0) AS p FROM chat_messages WHERE chat_pk = ?').get(chat.id) as { p: number };
  const info = statement(
    deps.db,
    `INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, displayed, answer, credits, copied_from_chat_id, knowledge_commit, knowledge_items, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_pk, message_uuid) DO NOTHING`,
  ).run(chat.id, uuid, input.role, input.content, next.p, input.displayed === false ? 0 : 1, extra.answer ?? null, extra.credits ?? null, extra.copied_from_chat_id ?? null, extra.knowledge_commit ?? null, extra.knowledge_items ?? null, now);
  if (info.changes !== 1) {
    throw new ValidationFailed([{ loc: ['body', 'message_uuid'], msg: 'message_uuid already exists in this chat', type: 'value_error' }]);
  }
  statement(deps.db, 'UPDATE chats SET updated_at = ? WHERE id = ?').run(now, chat.id);
  return statement(deps.db, 'SELECT * FROM chat_messages WHERE id = ?').get(info.lastInsertRowid) as MessageRow;
}

function titleFrom(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
