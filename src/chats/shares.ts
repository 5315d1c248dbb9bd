// Public shares of a chat or of one message (with the question it answers). The public view shows
// displayed messages only; a share that is gone, or whose chat or message is gone, is simply not found.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { newId } from '../security/index.ts';
import { byteOrder } from '../store/index.ts';
import { MessageNotFound, ShareIdTaken, ShareNotFound } from './errors.ts';
import { pageOf } from './load-chat.ts';
import { chatColumns, ownChat, type ChatDeps, type ChatRowWithLabels, type ChatStore } from './rows.ts';
import type { ChatPage } from './schemas.ts';

export interface ShareRef {
  /** The chat_id of the public view: GET /api/share/{chat_id}. */
  chat_id: string;
  shared_at: number;
}

/** Shares the caller's chat under its own chat_id (idempotent: a second share keeps the first). */
export async function shareChat(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): Promise<ShareRef> {
  const chat = await ownChat(deps.store, principal, chatId);
  const done = await deps.store.batch([
    sql`INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at)
      VALUES (${chat.chat_id}, ${chat.id}, NULL, ${principal.userId}, ${deps.clock.now()}) ON CONFLICT (share_id) DO NOTHING`,
    sql`SELECT chat_pk, message_uuid, created_at FROM chat_shares WHERE share_id = ${chat.chat_id}`,
  ]);
  const share = (done.ok ? done.results[1]!.rows[0] : undefined) as { chat_pk: number; message_uuid: string | null; created_at: number };
  // chat_id is unique per organization only: another organization may hold the same public id.
  if (share.chat_pk !== chat.id || share.message_uuid !== null) throw new ShareIdTaken();
  return { chat_id: chat.chat_id, shared_at: share.created_at };
}

/** Shares one message of the caller's chat, with its question, under a new public chat_id. */
export async function shareMessage(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: { chatId: string; messageUuid: string }): Promise<ShareRef> {
  const chat = await ownChat(deps.store, principal, chatId);
  const id = newId(16);
  const now = deps.clock.now();
  const { changes } = await deps.store.run(
    sql`INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at)
      SELECT ${id}, chat_pk, message_uuid, ${principal.userId}, ${now} FROM chat_messages WHERE chat_pk = ${chat.id} AND message_uuid = ${messageUuid}`,
  );
  if (changes !== 1) throw new MessageNotFound();
  return { chat_id: id, shared_at: now };
}

/** A share as its owner lists it: the public id and, for a shared message, which one. */
export interface OwnShare extends ShareRef {
  message_uuid: string | null;
}

/** The shares of the caller's chat, newest first (then by id's bytes, on both dialects); shares of deleted messages are left out (they show nothing). */
export async function listShares(deps: ChatStore, principal: Principal, { chatId }: { chatId: string }): Promise<OwnShare[]> {
  const chat = await ownChat(deps.store, principal, chatId);
  return deps.store.all(
    sql<OwnShare>`SELECT s.share_id AS chat_id, s.message_uuid, s.created_at AS shared_at FROM chat_shares s
       WHERE s.chat_pk = ${chat.id} AND (s.message_uuid IS NULL OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.chat_pk = s.chat_pk AND m.message_uuid = s.message_uuid))
       ORDER BY s.created_at DESC, ${byteOrder(deps.store, 's.share_id')} DESC`,
  );
}

/** Removes a share the caller made: the chat's own share or a shared message's id. */
export async function deleteSharedChat(deps: ChatStore, principal: Principal, { chatId }: { chatId: string }): Promise<void> {
  const { changes } = await deps.store.run(
    sql`DELETE FROM chat_shares WHERE share_id = ${chatId} AND chat_pk IN (SELECT id FROM chats WHERE org_id = ${principal.orgId} AND user_id = ${principal.userId})`,
  );
  if (changes !== 1) throw new ShareNotFound();
}

/** The public view of a share, without owner details; pair pagination as in loadChat. */
export async function loadSharedChat(deps: ChatStore, shareId: string, options: { pairs?: number; offset?: number }): Promise<ChatPage> {
  const x = deps.store;
  const chat = await x.one(
    sql<ChatRowWithLabels & { shared_message: string | null }>`SELECT ${chatColumns(x)}, s.message_uuid AS shared_message
       FROM chat_shares s JOIN chats c ON c.id = s.chat_pk WHERE s.share_id = ${shareId}`,
  );
  if (!chat) throw new ShareNotFound();
  const shared = chat.shared_message;
  const page = await pageOf(x, chat, { ...options, ...(shared === null ? {} : { onlyPairOf: shared }) });
  if (shared !== null && page.total_pairs === 0) throw new ShareNotFound();
  const { labels: _labels, pinned: _p, archived: _a, recently_completed: _r, ...publicChat } = page.chat!;
  return {
    ...page,
    // The public view is not the owner's: no labels or personal flags, and the share's own id.
    chat: { ...publicChat, chat_id: shareId, labels: [], pinned: false, archived: false, recently_completed: false },
  };
}
