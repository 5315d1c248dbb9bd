// Public shares of a chat or of one message (with the question it answers). The public view shows
// displayed messages only; a share that is gone, or whose chat or message is gone, is simply not found.
import type { Principal } from '../auth/index.ts';
import { newId } from '../security/index.ts';
import { ShareIdTaken, ShareNotFound } from './errors.ts';
import { pageOf } from './load-chat.ts';
import { CHAT_COLUMNS, findMessage, ownChat, type ChatDeps, type ChatRowWithLabels } from './rows.ts';
import type { ChatPage } from './schemas.ts';

export interface ShareRef {
  /** The chat_id of the public view: GET /api/share/{chat_id}. */
  chat_id: string;
  shared_at: number;
}

/** Shares the caller's chat under its own chat_id (idempotent). */
export function shareChat(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): ShareRef {
  const chat = ownChat(deps.db, principal, chatId);
  const existing = deps.db.prepare('SELECT chat_pk, message_uuid, created_at FROM chat_shares WHERE share_id = ?').get(chat.chat_id) as
    | { chat_pk: number; message_uuid: string | null; created_at: number }
    | undefined;
  if (existing) {
    // chat_id is unique per organization only: another organization may hold the same public id.
    if (existing.chat_pk !== chat.id || existing.message_uuid !== null) throw new ShareIdTaken();
    return { chat_id: chat.chat_id, shared_at: existing.created_at };
  }
  const now = deps.clock.now();
  deps.db.prepare('INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at) VALUES (?, ?, NULL, ?, ?)').run(chat.chat_id, chat.id, principal.userId, now);
  return { chat_id: chat.chat_id, shared_at: now };
}

/** Shares one message of the caller's chat, with its question, under a new public chat_id. */
export function shareMessage(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: { chatId: string; messageUuid: string }): ShareRef {
  const chat = ownChat(deps.db, principal, chatId);
  findMessage(deps.db, chat.id, messageUuid);
  const id = newId(16);
  const now = deps.clock.now();
  deps.db.prepare('INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at) VALUES (?, ?, ?, ?, ?)').run(id, chat.id, messageUuid, principal.userId, now);
  return { chat_id: id, shared_at: now };
}

/** A share as its owner lists it: the public id and, for a shared message, which one. */
export interface OwnShare extends ShareRef {
  message_uuid: string | null;
}

/** The shares of the caller's chat, newest first; shares of deleted messages are left out (they show nothing). */
export function listShares(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): OwnShare[] {
  const chat = ownChat(deps.db, principal, chatId);
  return deps.db
    .prepare(
      `SELECT s.share_id AS chat_id, s.message_uuid, s.created_at AS shared_at FROM chat_shares s
       WHERE s.chat_pk = ? AND (s.message_uuid IS NULL OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.chat_pk = s.chat_pk AND m.message_uuid = s.message_uuid))
       ORDER BY s.created_at DESC, s.rowid DESC`,
    )
    .all(chat.id) as OwnShare[];
}

/** Removes a share the caller made: the chat's own share or a shared message's id. */
export function deleteSharedChat(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): void {
  const info = deps.db
    .prepare(
      `DELETE FROM chat_shares WHERE share_id = ? AND chat_pk IN (SELECT id FROM chats WHERE org_id = ? AND user_id = ?)`,
    )
    .run(chatId, principal.orgId, principal.userId);
  if (info.changes !== 1) throw new ShareNotFound();
}

/** The public view of a share, without owner details; pair pagination as in loadChat. */
export function loadSharedChat(deps: ChatDeps, shareId: string, options: { pairs?: number; offset?: number }): ChatPage {
  const share = deps.db.prepare('SELECT chat_pk, message_uuid FROM chat_shares WHERE share_id = ?').get(shareId) as
    | { chat_pk: number; message_uuid: string | null }
    | undefined;
  if (!share) throw new ShareNotFound();
  const chat = deps.db.prepare(`SELECT ${CHAT_COLUMNS} FROM chats c WHERE c.id = ?`).get(share.chat_pk) as ChatRowWithLabels | undefined;
  if (!chat) throw new ShareNotFound();
  const page = pageOf(deps.db, chat, { ...options, ...(share.message_uuid === null ? {} : { onlyPairOf: share.message_uuid }) });
  if (share.message_uuid !== null && page.total_pairs === 0) throw new ShareNotFound();
  const { labels: _labels, pinned: _p, archived: _a, recently_completed: _r, ...publicChat } = page.chat!;
  return {
    ...page,
    // The public view is not the owner's: no labels or personal flags, and the share's own id.
    chat: { ...publicChat, chat_id: shareId, labels: [], pinned: false, archived: false, recently_completed: false },
  };
}
