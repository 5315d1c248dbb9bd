// The whole conversation in order, hidden messages included: what the agent reads to build the
// model's context. Owner only, like every write.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { findChat, toMessage, type ChatStore, type MessageRow } from './rows.ts';
import type { ChatMessage } from './schemas.ts';

/** Every message of the caller's chat in display order; an unknown chat gives an empty list. */
export async function chatTranscript(deps: ChatStore, principal: Principal, chatId: string, { maxMessages = 500 }: { maxMessages?: number } = {}): Promise<ChatMessage[]> {
  // Not through ownChat: a new chat (every first question) would cost an exception to say "empty".
  const chat = await findChat(deps.store, principal.orgId, chatId);
  if (!chat || chat.user_id !== principal.userId) return [];
  // The newest maxMessages, returned oldest first.
  const rows = await deps.store.all(
    sql<MessageRow>`SELECT * FROM (SELECT * FROM chat_messages WHERE chat_pk = ${chat.id} ORDER BY position DESC, id DESC LIMIT ${maxMessages}) recent ORDER BY position, id`,
  );
  return rows.map(toMessage);
}
