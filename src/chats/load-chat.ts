// Loading a chat in pair pages (interface part 8): offset 0 is the most recent pair; agentic chats
// open with 1 pair and then page by 5, other chats page by 5. A pair is a block (message-order.ts).
import { sql } from 'kysely';
import type { Principal } from '../auth/index.ts';
import type { Executor } from '../store/index.ts';
import { MessageNotFound } from './errors.ts';
import { blocksOf } from './message-order.ts';
import { readableChat, toMessage, toSummary, type ChatRowWithLabels, type ChatStore, type MessageRow } from './rows.ts';
import type { ChatPage, MessageRole } from './schemas.ts';

export const AGENTIC_FIRST_PAGE_PAIRS = 1;
export const HISTORY_PAGE_PAIRS = 5;

export interface PageOptions {
  /** Also return messages that are not displayed. */
  includeAll?: boolean;
  pairs?: number;
  offset?: number;
  pageOnly?: boolean;
  /** Only the pair holding this message. */
  messageUuid?: string;
  /** Restricts the chat to one message's pair (shared messages). */
  onlyPairOf?: string;
}

/** The default number of pairs of a page. */
export function defaultPairs(agentic: boolean, offset: number): number {
  return agentic && offset === 0 ? AGENTIC_FIRST_PAGE_PAIRS : HISTORY_PAGE_PAIRS;
}

/** Loads a page of a chat the caller may read (owner, or admin/modeler of its organization). */
export async function loadChat(deps: ChatStore, principal: Principal, chatId: string, options: PageOptions = {}): Promise<ChatPage> {
  return pageOf(deps.store, await readableChat(deps.store, principal, chatId), options);
}

interface Slot {
  id: number;
  message_uuid: string;
  role: MessageRole;
}

/** Builds a pair page of a chat row (access already checked by the caller). */
export async function pageOf(x: Executor, chat: ChatRowWithLabels, options: PageOptions): Promise<ChatPage> {
  const offset = options.offset ?? 0;
  const shown = options.includeAll ? sql`` : sql`AND displayed = 1`;
  const slots = await x.all(sql<Slot>`SELECT id, message_uuid, role FROM chat_messages WHERE chat_pk = ${chat.id} ${shown} ORDER BY position, id`);
  let blocks = blocksOf(slots);
  if (options.onlyPairOf !== undefined) blocks = blocks.filter((b) => b.some((s) => s.message_uuid === options.onlyPairOf));
  let selected: Slot[][];
  let pairs = options.pairs ?? defaultPairs(chat.agentic === 1, offset);
  let pageOffset = offset;
  let hasMore: boolean;
  if (options.messageUuid !== undefined) {
    const at = blocks.findIndex((b) => b.some((s) => s.message_uuid === options.messageUuid));
    if (at < 0) throw new MessageNotFound();
    selected = [blocks[at]!];
    pairs = 1;
    pageOffset = blocks.length - 1 - at;
    hasMore = at > 0;
  } else {
    const end = Math.max(blocks.length - offset, 0);
    const start = Math.max(end - pairs, 0);
    selected = blocks.slice(start, end);
    hasMore = start > 0;
  }
  const ids = selected.flat().map((s) => s.id);
  const rows = ids.length === 0 ? [] : await x.all(sql<MessageRow>`SELECT * FROM chat_messages WHERE id IN (${sql.join(ids)}) ORDER BY position, id`);
  return {
    ...(options.pageOnly ? {} : { chat: toSummary(chat) }),
    messages: rows.map(toMessage),
    total_pairs: blocks.length,
    offset: pageOffset,
    pairs,
    has_more: hasMore,
  };
}
