// Who may download an answer's data (interface part 4: "own chats, shared chats, admins"):
// - the owner, and admins and modelers of the chat's organization (as for loading the chat);
// - any member of the same organization when the chat is shared: the whole chat for a chat share,
//   the shared pair only for a message share, both addressed by the share's id (never the chat's
//   id: knowing a chat's id opens nothing); displayed messages only, as on the public page. The data is re-run under the downloader's own permissions (src/downloads).
// Shares never open data to other organizations: connections belong to an organization, and the
// public page shows the answer, not a way to query someone else's warehouse. Everything else: 404.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { hasRole } from '../auth/index.ts';
import type { Executor } from '../store/index.ts';
import { ChatNotFound } from './errors.ts';
import { answerIn, type AnswerLocator, type AnswerScope, type AnswerSource } from './find-answer.ts';
import { blocksOf } from './message-order.ts';
import { findChat, type ChatStore } from './rows.ts';
import type { MessageRole } from './schemas.ts';

export interface DownloadSource extends AnswerSource {
  /** How the caller reached it: their own chat, their admin/modeler role, or a share. */
  access: 'owner' | 'role' | 'shared';
}

/** The answer source of a chat the caller may download from, or a NotFound error. */
export async function findDownloadSource(deps: ChatStore, principal: Principal, chatId: string, at: AnswerLocator): Promise<DownloadSource> {
  const chat = await findChat(deps.store, principal.orgId, chatId);
  if (chat && chat.user_id === principal.userId) return { ...(await answerIn(deps, { pk: chat.id, chatId: chat.chat_id, title: chat.title }, at)), access: 'owner' };
  if (chat && hasRole(principal, 'modeler')) return { ...(await answerIn(deps, { pk: chat.id, chatId: chat.chat_id, title: chat.title }, at)), access: 'role' };
  const scope = await sharedScope(deps.store, principal.orgId, chatId, chat?.id);
  if (!scope) throw new ChatNotFound();
  return { ...(await answerIn(deps, scope, at)), access: 'shared' };
}

/** Throws ChatNotFound when a chat with this id exists in the caller's organization and is someone else's. */
export async function assertNotOthersChat(deps: ChatStore, principal: Principal, chatId: string): Promise<void> {
  const chat = await findChat(deps.store, principal.orgId, chatId);
  if (chat && chat.user_id !== principal.userId) throw new ChatNotFound();
}

interface Slot {
  id: number;
  message_uuid: string;
  role: MessageRole;
}

async function sharedScope(x: Executor, orgId: string, shareId: string, chatPk: number | undefined): Promise<AnswerScope | undefined> {
  const share = await x.one(
    sql<{ chat_pk: number; message_uuid: string | null; title: string }>`SELECT s.chat_pk, s.message_uuid, c.title FROM chat_shares s JOIN chats c ON c.id = s.chat_pk WHERE s.share_id = ${shareId} AND c.org_id = ${orgId}`,
  );
  if (!share) return undefined;
  // A share is addressed by its own random id only; should a chat of this org carry that id as its
  // chat_id (the client names chats), that chat is someone else's and stays private.
  if (chatPk !== undefined) return undefined;
  const slots = await x.all(sql<Slot>`SELECT id, message_uuid, role FROM chat_messages WHERE chat_pk = ${share.chat_pk} AND displayed = 1 ORDER BY position, id`);
  const visible = share.message_uuid === null ? slots : (blocksOf(slots).find((b) => b.some((s) => s.message_uuid === share.message_uuid)) ?? []);
  return { pk: share.chat_pk, chatId: shareId, title: share.title, visible: new Set(visible.map((s) => s.id)) };
}
