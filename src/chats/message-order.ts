// Deleting and reordering messages. A "block" is a user message with the replies that follow it
// (up to the next user message); block mode moves whole blocks, so a question keeps its answer.
import type { Principal } from '../auth/index.ts';
import { findMessage, ownChat, touchChat, type ChatDeps } from './rows.ts';
import type { MessageRole } from './schemas.ts';
import { transact } from '../store/index.ts';

/** Deletes one message of the caller's chat. */
export function deleteMessage(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: { chatId: string; messageUuid: string }): void {
  const chat = ownChat(deps.db, principal, chatId);
  const message = findMessage(deps.db, chat.id, messageUuid);
  transact(deps.db, () => {
    deps.db.prepare('DELETE FROM chat_messages WHERE id = ?').run(message.id);
    touchChat(deps, chat.id);
  });
}

interface Slot {
  id: number;
  message_uuid: string;
  role: MessageRole;
}

/** Groups ordered messages into blocks, each starting at a user message. */
export function blocksOf<T extends { role: MessageRole }>(messages: T[]): T[][] {
  const blocks: T[][] = [];
  for (const m of messages) {
    const last = blocks[blocks.length - 1];
    if (m.role === 'user' || !last) blocks.push([m]);
    else last.push(m);
  }
  return blocks;
}

export interface SaveMessageOrderInput {
  chatId: string;
  messageUuid: string;
  direction: 'up' | 'down';
  blockMode?: boolean;
}

/** Moves a message (or its block) one step; returns whether anything moved (false at the edge). */
export function saveMessageOrder(deps: ChatDeps, principal: Principal, input: SaveMessageOrderInput): { moved: boolean } {
  const chat = ownChat(deps.db, principal, input.chatId);
  findMessage(deps.db, chat.id, input.messageUuid);
  return transact(deps.db, () => {
    const slots = deps.db.prepare('SELECT id, message_uuid, role FROM chat_messages WHERE chat_pk = ? ORDER BY position, id').all(chat.id) as Slot[];
    const units = input.blockMode ? blocksOf(slots) : slots.map((s) => [s]);
    const at = units.findIndex((u) => u.some((s) => s.message_uuid === input.messageUuid));
    const to = input.direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= units.length) return { moved: false };
    [units[at], units[to]] = [units[to]!, units[at]!];
    const set = deps.db.prepare('UPDATE chat_messages SET position = ? WHERE id = ?');
    units.flat().forEach((s, i) => set.run(i, s.id));
    touchChat(deps, chat.id);
    return { moved: true };
  });
}
