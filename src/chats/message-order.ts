// Deleting and reordering messages. A "block" is a user message with the replies that follow it
// (up to the next user message); block mode moves whole blocks, so a question keeps its answer.
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { Conflict } from '../errors.ts';
import { ChatNotFound, MessageNotFound } from './errors.ts';
import { findMessage, ownChat, ownedBy, type ChatDeps } from './rows.ts';
import type { MessageRole } from './schemas.ts';

/** Deletes one message of the caller's chat. */
export async function deleteMessage(deps: ChatDeps, principal: Principal, { chatId, messageUuid }: { chatId: string; messageUuid: string }): Promise<void> {
  const done = await deps.store.batch(
    [
      sql`UPDATE chats SET updated_at = ${deps.clock.now()} WHERE ${ownedBy(principal, chatId)}`,
      sql`DELETE FROM chat_messages WHERE chat_pk = (SELECT id FROM chats WHERE ${ownedBy(principal, chatId)}) AND message_uuid = ${messageUuid}`,
    ],
    { require: [0, 1] },
  );
  if (!done.ok) throw done.failed === 0 ? new ChatNotFound() : new MessageNotFound();
}

interface Slot {
  id: number;
  message_uuid: string;
  role: MessageRole;
  position: number;
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

/** A write that lost to a concurrent change of the chat is tried again on what that change left. */
const ORDER_ATTEMPTS = 3;

/** Moves a message (or its block) one step; returns whether anything moved (false at the edge). */
export async function saveMessageOrder(deps: ChatDeps, principal: Principal, input: SaveMessageOrderInput): Promise<{ moved: boolean }> {
  const chat = await ownChat(deps.store, principal, input.chatId);
  await findMessage(deps.store, chat.id, input.messageUuid);
  for (let attempt = 0; attempt < ORDER_ATTEMPTS; attempt++) {
    const slots = await deps.store.all(sql<Slot>`SELECT id, message_uuid, role, position FROM chat_messages WHERE chat_pk = ${chat.id} ORDER BY position, id`);
    const units = input.blockMode ? blocksOf(slots) : slots.map((s) => [s]);
    const at = units.findIndex((u) => u.some((s) => s.message_uuid === input.messageUuid));
    if (at < 0) throw new MessageNotFound();
    const to = input.direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= units.length) return { moved: false };
    [units[at], units[to]] = [units[to]!, units[at]!];
    // Every row is renumbered only if it still has the position read, and the chat still has as many
    // messages: otherwise another write came in between and the batch rolls back.
    const moves = units.flat().map((s, i) => sql`UPDATE chat_messages SET position = ${i} WHERE id = ${s.id} AND position = ${s.position}`);
    const done = await deps.store.batch(
      [
        sql`UPDATE chats SET updated_at = ${deps.clock.now()} WHERE id = ${chat.id}`,
        sql`SELECT 1 AS same FROM chats WHERE id = ${chat.id} AND (SELECT COUNT(*) FROM chat_messages WHERE chat_pk = ${chat.id}) = ${slots.length}`,
        ...moves,
      ],
      { require: [0, 1, ...moves.map((_, i) => i + 2)] },
    );
    if (done.ok) return { moved: true };
  }
  throw new Conflict('The chat changed while its messages were being moved; try again', 'CHAT_CHANGED');
}
