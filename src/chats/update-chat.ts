// The owner's small changes to a chat: pin, archive, dismiss the completion flag, labels, feedback.
// Each is one batch whose first statement names the caller's own chat in its WHERE (owner and
// organization checked in SQL, so another user's chat is never changed), then reads the result.
import { sql, type RawBuilder } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { Conflict } from '../errors.ts';
import { newId } from '../security/index.ts';
import { ChatNotFound, MessageNotFound } from './errors.ts';
import { chatColumns, ownChat, ownedBy, toSummary, type ChatDeps, type ChatRowWithLabels } from './rows.ts';
import type { ChatSummary } from './schemas.ts';

/** At most this many labels per chat. */
export const MAX_LABELS = 20;

/** The chat after `writes` (which run after the owner's chat row is updated with `set`), or ChatNotFound. */
async function changeChat(deps: ChatDeps, principal: Principal, chatId: string, set: RawBuilder<unknown>, writes: RawBuilder<unknown>[] = []): Promise<ChatSummary> {
  const x = deps.store;
  const done = await x.batch(
    [
      sql`UPDATE chats SET ${set} WHERE ${ownedBy(principal, chatId)}`,
      ...writes,
      sql`SELECT ${chatColumns(x)} FROM chats c WHERE c.org_id = ${principal.orgId} AND c.chat_id = ${chatId}`,
    ],
    { require: [0] },
  );
  if (!done.ok) throw new ChatNotFound();
  return toSummary(done.results.at(-1)!.rows[0] as ChatRowWithLabels);
}

/** Pins (favorites) or unpins one of the caller's chats; pinning again keeps the first pin time. */
export function pinChat(deps: ChatDeps, principal: Principal, { chatId, pinned = true }: { chatId: string; pinned?: boolean }): Promise<ChatSummary> {
  return changeChat(deps, principal, chatId, pinned ? sql`pinned_at = COALESCE(pinned_at, ${deps.clock.now()})` : sql`pinned_at = NULL`);
}

/** Archives or unarchives one of the caller's chats; archiving again keeps the first time. */
export function archiveChat(deps: ChatDeps, principal: Principal, { chatId, archived = true }: { chatId: string; archived?: boolean }): Promise<ChatSummary> {
  return changeChat(deps, principal, chatId, archived ? sql`archived_at = COALESCE(archived_at, ${deps.clock.now()})` : sql`archived_at = NULL`);
}

/** Clears the chat's recently_completed flag. */
export function dismissChatCompletion(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): Promise<ChatSummary> {
  return changeChat(deps, principal, chatId, sql`recently_completed = 0`);
}

/**
 * Adds a label (idempotent), or removes it with `remove`. The owner check rewrites updated_at with
 * itself: on PostgreSQL that locks the chat's row, so two concurrent adds cannot both pass the count.
 */
export async function addLabelToChat(deps: ChatDeps, principal: Principal, { chatId, label, remove = false }: { chatId: string; label: string; remove?: boolean }): Promise<ChatSummary> {
  const clean = label.trim();
  const chatPk = sql`(SELECT id FROM chats WHERE ${ownedBy(principal, chatId)})`;
  const write = remove
    ? sql`DELETE FROM chat_labels WHERE chat_pk = ${chatPk} AND label = ${clean}`
    : sql`INSERT INTO chat_labels (chat_pk, label, created_at)
        SELECT c.id, ${clean}, ${deps.clock.now()} FROM chats c
        WHERE c.id = ${chatPk} AND (SELECT COUNT(*) FROM chat_labels l WHERE l.chat_pk = c.id AND l.label <> ${clean}) < ${MAX_LABELS}
        ON CONFLICT DO NOTHING`;
  const chat = await changeChat(deps, principal, chatId, sql`updated_at = updated_at`, [write]);
  // Not added and not there: the count refused it.
  if (!remove && !chat.labels.includes(clean)) throw new Conflict(`A chat has at most ${MAX_LABELS} labels`, 'TOO_MANY_LABELS');
  return chat;
}

export interface FeedbackInput {
  chatId: string;
  messageUuid: string;
  rating?: 'positive' | 'negative';
  comment?: string;
}

/** Records the owner's feedback on a message of their chat. */
export async function recordFeedback(deps: ChatDeps, principal: Principal, input: FeedbackInput): Promise<{ feedback_id: string }> {
  const id = newId();
  const { changes } = await deps.store.run(
    sql`INSERT INTO chat_feedback (id, chat_pk, message_uuid, user_id, rating, comment, created_at)
      SELECT ${id}, c.id, m.message_uuid, c.user_id, ${input.rating ?? null}, ${input.comment ?? ''}, ${deps.clock.now()}
      FROM chats c JOIN chat_messages m ON m.chat_pk = c.id AND m.message_uuid = ${input.messageUuid}
      WHERE c.org_id = ${principal.orgId} AND c.chat_id = ${input.chatId} AND c.user_id = ${principal.userId}`,
  );
  if (changes === 1) return { feedback_id: id };
  await ownChat(deps.store, principal, input.chatId);
  throw new MessageNotFound();
}
