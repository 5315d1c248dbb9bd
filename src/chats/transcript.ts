// The whole conversation in order, hidden messages included: what the agent reads to build the
// model's context. Owner only, like every write.
import type { Principal } from '../auth/index.ts';
import { statement } from '../store/index.ts';
import { findChat, toMessage, type ChatDeps, type MessageRow } from './rows.ts';
import type { ChatMessage } from './schemas.ts';

/** Every message of the caller's chat in display order; an unknown chat gives an empty list. */
export function chatTranscript(deps: ChatDeps, principal: Principal, chatId: string, { maxMessages = 500 }: { maxMessages?: number } = {}): ChatMessage[] {
  // Not through ownChat: a new chat (every first question) would cost an exception to say "empty".
  const chat = findChat(deps.db, principal.orgId, chatId);
  if (!chat || chat.user_id !== principal.userId) return [];
  // The newest maxMessages, returned oldest first.
  const rows = statement(deps.db, 'SELECT * FROM (SELECT * FROM chat_messages WHERE chat_pk = ? ORDER BY position DESC, id DESC LIMIT ?) ORDER BY position, id')
    .all(chat.id, maxMessages) as MessageRow[];
  return rows.map(toMessage);
}
