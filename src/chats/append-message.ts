// How the agent (and the plain query flow) writes into chats: appendMessage, recordAnswer.
// Nothing else writes messages, so the title, the full-text index and recently_completed stay right.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import { CommitGroup, type Executor } from '../store/index.ts';
import { ChatNotFound } from './errors.ts';
import { ownedBy, toMessage, type ChatDeps, type MessageRow } from './rows.ts';
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

/**
 * Messages sharing one commit at most: as the run starts' (run-manager.ts), so that under a burst of
 * questions the first askers' appends commit while the later requests are still being read.
 */
const MESSAGES_PER_COMMIT = 8;

/** The group commit the service writes its messages through (`ChatDeps.appends`), one per store. */
export function messageWrites(x: Executor): CommitGroup {
  return new CommitGroup(x, MESSAGES_PER_COMMIT);
}

function checkChatId(chatId: string): void {
  if (chatId.length === 0 || chatId.length > 200) {
    throw new ValidationFailed([{ loc: ['body', 'chat_id'], msg: 'chat_id must have 1 to 200 characters', type: 'value_error' }]);
  }
}

// Creates the chat unless this organization has one with this id (whoever owns it: the statements
// that follow check the owner).
function insertChatQuery(principal: Principal, input: EnsureChatInput, now: number) {
  return sql`INSERT INTO chats (org_id, chat_id, user_id, title, agentic, environment_id, environment_name, hidden, created_at, updated_at)
     VALUES (${principal.orgId}, ${input.chatId}, ${principal.userId}, ${(input.title ?? '').slice(0, TITLE_MAX)}, ${input.agentic === false ? 0 : 1},
             ${input.environment?.id ?? null}, ${input.environment?.name ?? null}, ${input.hidden ? 1 : 0}, ${now}, ${now})
     ON CONFLICT (org_id, chat_id) DO NOTHING`;
}

export interface AppendMessageInput extends EnsureChatInput {
  role: MessageRole;
  content: string;
  /** Chosen by the caller when it already named the message (e.g. in stream events); else a UUID. */
  messageUuid?: string;
  /** False for context the agent keeps but people never see. */
  displayed?: boolean;
}

/** Appends a message at the end of the chat (creating the chat if needed); a question titles an untitled chat. */
export async function appendMessage(deps: ChatDeps, principal: Principal, input: AppendMessageInput): Promise<ChatMessage> {
  checkChatId(input.chatId);
  return append(deps, principal, input, {}, input.role === 'user' ? { title: titleFrom(input.content) } : {});
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
export async function recordAnswer(deps: ChatDeps, principal: Principal, input: RecordAnswerInput): Promise<ChatMessage> {
  checkChatId(input.chatId);
  if (input.credits !== undefined && input.copiedFromChatId !== undefined) {
    throw new ValidationFailed([{ loc: ['body', 'credits'], msg: 'credits and copied_from_chat_id are exclusive', type: 'value_error' }]);
  }
  const answer = input.answer === undefined ? undefined : Answer.parse(input.answer);
  const extra: AnswerColumns = {
    answer: answer === undefined ? null : JSON.stringify(answer),
    credits: input.credits ?? null,
    copied_from_chat_id: input.copiedFromChatId ?? null,
    knowledge_commit: input.knowledgeCommit ?? null,
    knowledge_items: input.knowledgeItems === undefined ? null : JSON.stringify(input.knowledgeItems),
  };
  return append(deps, principal, { ...input, role: 'assistant' }, extra, { completed: true });
}

type AnswerColumns = Partial<Pick<MessageRow, 'answer' | 'credits' | 'copied_from_chat_id' | 'knowledge_commit' | 'knowledge_items'>>;

/**
 * One batch (committed with the other messages of this turn through `deps.appends`, each still all
 * or nothing): the chat created if new, then marked changed (owner checked: another user's chat changes
 * nothing and fails the batch), then the message inserted after the chat's last one. On PostgreSQL
 * the UPDATE locks the chat's row until the commit, so concurrent appends to one chat take their
 * positions one after another (each INSERT reads MAX(position) after the previous commit).
 */
async function append(
  deps: ChatDeps,
  principal: Principal,
  input: AppendMessageInput,
  extra: AnswerColumns,
  change: { title?: string; completed?: boolean },
): Promise<ChatMessage> {
  const now = deps.clock.now();
  const set = [sql`updated_at = ${now}`];
  if (change.title !== undefined) set.push(sql`title = CASE WHEN title = '' THEN ${change.title} ELSE title END`);
  if (change.completed) set.push(sql`recently_completed = 1`);
  const done = await (deps.appends ?? deps.store).batch(
    [
      insertChatQuery(principal, input, now),
      sql`UPDATE chats SET ${sql.join(set)} WHERE ${ownedBy(principal, input.chatId)}`,
      sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, displayed, answer, credits, copied_from_chat_id, knowledge_commit, knowledge_items, created_at)
        SELECT c.id, ${input.messageUuid ?? randomUUID()}, ${input.role}, ${input.content},
               (SELECT COALESCE(MAX(m.position) + 1, 0) FROM chat_messages m WHERE m.chat_pk = c.id), ${input.displayed === false ? 0 : 1},
               ${extra.answer ?? null}, ${extra.credits ?? null}, ${extra.copied_from_chat_id ?? null}, ${extra.knowledge_commit ?? null}, ${extra.knowledge_items ?? null}, ${now}
        FROM chats c WHERE c.org_id = ${principal.orgId} AND c.chat_id = ${input.chatId}
        ON CONFLICT (chat_pk, message_uuid) DO NOTHING RETURNING *`,
    ],
    { require: [1, 2] },
  );
  if (!done.ok && done.failed === 1) throw new ChatNotFound();
  if (!done.ok) throw new ValidationFailed([{ loc: ['body', 'message_uuid'], msg: 'message_uuid already exists in this chat', type: 'value_error' }]);
  // Indexed after this turn, not in this batch: an FTS commit costs the answer ~0.1-0.3 ms (migration 0051).
  deps.searchIndex?.nudge();
  return toMessage(done.results[2]!.rows[0] as MessageRow);
}

function titleFrom(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
