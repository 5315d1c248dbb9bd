// Public shares of a chat or of one message (with the question it answers). Every share has its own
// random id (never the chat's id, which the client chooses), new on each share; a stopped share's id
// is gone for good. The public view shows displayed messages only, without the owner's labels, flags
// or credits; a share that is gone, or whose chat or message is gone, is simply not found.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { newId } from '../security/index.ts';
import { byteOrder } from '../store/index.ts';
import { MessageNotFound, ShareNotFound } from './errors.ts';
import { pageOf } from './load-chat.ts';
import { chatColumns, ownChat, type ChatDeps, type ChatRowWithLabels, type ChatStore } from './rows.ts';
import type { ChatPage } from './schemas.ts';

export interface ShareRef {
  /** The share's own random id, never the chat's: GET /api/share/{chat_id} takes it. */
  chat_id: string;
  shared_at: number;
}

/** Bytes of randomness in a share's id (128 bits): a share link cannot be guessed from the chat. */
export const SHARE_ID_BYTES = 16;

/**
 * Shares the caller's chat under a new random id. A chat has one whole-chat share: sharing again
 * replaces it (the earlier link stops working), so a stopped link never comes back.
 */
export async function shareChat(deps: ChatDeps, principal: Principal, { chatId }: { chatId: string }): Promise<ShareRef> {
  const chat = await ownChat(deps.store, principal, chatId);
  const id = newId(SHARE_ID_BYTES);
  const now = deps.clock.now();
  // One statement, so two shares at once leave one share (the later), never two.
  await deps.store.run(
    sql`INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at)
      VALUES (${id}, ${chat.id}, NULL, ${principal.userId}, ${now})
      ON CONFLICT (chat_pk) WHERE message_uuid IS NULL
      DO UPDATE SET share_id = excluded.share_id, created_by = excluded.created_by, created_at = excluded.created_at`,
  );
  return { chat_id: id, shared_at: now };
}

/** Shares one message of the caller's chat, with its question, under a new random id. */
export async function shareMessage(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: { chatId: string; messageUuid: string }): Promise<ShareRef> {
  const chat = await ownChat(deps.store, principal, chatId);
  const id = newId(SHARE_ID_BYTES);
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

/** Removes a share the caller made (a whole-chat or a message share, by its id); its link then answers 404 for good. */
export async function deleteSharedChat(deps: ChatStore, principal: Principal, { chatId }: { chatId: string }): Promise<void> {
  const { changes } = await deps.store.run(
    sql`DELETE FROM chat_shares WHERE share_id = ${chatId} AND chat_pk IN (SELECT id FROM chats WHERE org_id = ${principal.orgId} AND user_id = ${principal.userId})`,
  );
  if (changes !== 1) throw new ShareNotFound();
}

/** The public view of a share, without owner details (labels, flags, credits); pair pagination as in loadChat. */
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
    // Nor the owner's costs, nor the id of another of their chats an answer was copied from.
    messages: page.messages.map((m) => ({ ...m, credits: null, copied_from_chat_id: null })),
  };
}
