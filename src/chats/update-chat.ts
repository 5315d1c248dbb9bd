// The owner's small changes to a chat: pin, archive, dismiss the completion flag, labels, feedback.
import type { Principal } from '../auth/index.ts';
import { Conflict } from '../errors.ts';
import { newId } from '../security/index.ts';
import { findMessage, ownChat, toSummary, type ChatDeps } from './rows.ts';
import type { ChatSummary } from './schemas.ts';
import { transact } from '../store/index.ts';

/** At most this many labels per chat. */
export const MAX_LABELS = 20;

/** Pins (favorites) or unpins one of the caller's chats. */
export function pinChat(deps: ChatDeps, principal: Principal, { chatId, pinned = true }: { chatId: string; pinned?: boolean }): ChatSummary {
  const chat = ownChat(deps.db, principal, chatId);
  deps.db.prepare('UPDATE chats SET pinned_at = ? WHERE id = ?').run(pinned ? (chat.pinned_at ?? deps.clock.now()) : null, chat.id);
  return toSummary(ownChat(deps.db, principal, chatId));
}

/** Archives or unarchives one of the caller's chats. */
export function archiveChat(deps: ChatDeps, principal: Principal, { chatId, archived = true }: { chatId: string; archived?: boolean }): ChatSummary {
  const chat = ownChat(deps.db, principal, chatId);
  deps.db.prepare('UPDATE chats SET archived_at = ? WHERE id = ?').run(archived ? (chat.archived_at ?? deps.clock.now()) : null, chat.id);
  return toSummary(ownChat(deps.db, principal, chatId));
}

/** Clears the chat's recently_completed flag. */
export function dismissChatCompletion(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): ChatSummary {
  const chat = ownChat(deps.db, principal, chatId);
  deps.db.prepare('UPDATE chats SET recently_completed = 0 WHERE id = ?').run(chat.id);
  return toSummary(ownChat(deps.db, principal, chatId));
}

/** Adds a label (idempotent), or removes it with `remove`. */
export function addLabelToChat(deps: ChatDeps, principal: Principal, { chatId, label, remove = false }: { chatId: string; label: string; remove?: boolean }): ChatSummary {
  const chat = ownChat(deps.db, principal, chatId);
  const clean = label.trim();
  transact(deps.db, () => {
    if (remove) {
      deps.db.prepare('DELETE FROM chat_labels WHERE chat_pk = ? AND label = ?').run(chat.id, clean);
      return;
    }
    const count = deps.db.prepare('SELECT COUNT(*) AS n FROM chat_labels WHERE chat_pk = ? AND label <> ?').get(chat.id, clean) as { n: number };
    if (count.n >= MAX_LABELS) throw new Conflict(`A chat has at most ${MAX_LABELS} labels`, 'TOO_MANY_LABELS');
    deps.db.prepare('INSERT INTO chat_labels (chat_pk, label, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(chat.id, clean, deps.clock.now());
  });
  return toSummary(ownChat(deps.db, principal, chatId));
}

export interface FeedbackInput {
  chatId: string;
  messageUuid: string;
  rating?: 'positive' | 'negative';
  comment?: string;
}

/** Records the owner's feedback on a message of their chat. */
export function recordFeedback(deps: ChatDeps, principal: Principal, input: FeedbackInput): { feedback_id: string } {
  const chat = ownChat(deps.db, principal, input.chatId);
  findMessage(deps.db, chat.id, input.messageUuid);
  const id = newId();
  deps.db
    .prepare('INSERT INTO chat_feedback (id, chat_pk, message_uuid, user_id, rating, comment, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, chat.id, input.messageUuid, principal.userId, input.rating ?? null, input.comment ?? '', deps.clock.now());
  return { feedback_id: id };
}
