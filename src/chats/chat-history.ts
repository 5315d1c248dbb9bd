// The chat list, newest first, in keyset pages. The key is the chat's internal id, which only grows,
// so chats created between two pages land before the cursor: none is skipped or repeated. Pinned and
// archived chats are listed apart (on the first page), so each chat shows up in one place only. Hidden
// chats (evaluation answers) are not listed anywhere, not even once pinned or archived: they open by id.
// The same statements run on both dialects; only the labels' JSON array is spelled per dialect (rows.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Principal } from '../auth/index.ts';
import type { Executor } from '../store/index.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { chatColumns, toSummary, type ChatRowWithLabels, type ChatStore } from './rows.ts';
import type { ChatHistoryResponse } from './schemas.ts';

/** How many archived chats the first page carries. */
export const RECENT_ARCHIVED = 20;

export interface ChatHistoryInput {
  cursor?: string;
  limit?: number;
  /** Key of the cursor MAC (the service's JWT key). */
  cursorKey: string;
}

/** One page of the caller's chats in the current organization. */
export async function chatHistory(deps: ChatStore, principal: Principal, { cursor, limit = 40, cursorKey }: ChatHistoryInput): Promise<ChatHistoryResponse> {
  const scope = { key: cursorKey, userId: principal.userId, orgId: principal.orgId };
  const after = cursor === undefined ? undefined : decodeCursor(scope, cursor);
  const x = deps.store;
  const columns = chatColumns(x);
  const rows = await x.all(
    sql<ChatRowWithLabels>`SELECT ${columns} FROM chats c
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} AND c.pinned_at IS NULL AND c.archived_at IS NULL AND c.hidden = 0
       AND c.id < ${after ?? Number.MAX_SAFE_INTEGER}
       ORDER BY c.id DESC LIMIT ${limit + 1}`,
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const first = after === undefined;
  return {
    chats: page.map(toSummary),
    pinned: first ? await pinnedChats(x, columns, principal) : [],
    archived: first ? await archivedChats(x, columns, principal) : [],
    next_cursor: more ? encodeCursor(scope, page[page.length - 1]!.id) : null,
  };
}

async function pinnedChats(x: Executor, columns: RawBuilder<unknown>, principal: Principal) {
  const rows = await x.all(
    sql<ChatRowWithLabels>`SELECT ${columns} FROM chats c
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} AND c.pinned_at IS NOT NULL AND c.hidden = 0
       ORDER BY c.pinned_at DESC, c.id DESC`,
  );
  return rows.map(toSummary);
}

async function archivedChats(x: Executor, columns: RawBuilder<unknown>, principal: Principal) {
  const rows = await x.all(
    sql<ChatRowWithLabels>`SELECT ${columns} FROM chats c
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} AND c.archived_at IS NOT NULL AND c.pinned_at IS NULL AND c.hidden = 0
       ORDER BY c.archived_at DESC, c.id DESC LIMIT ${RECENT_ARCHIVED}`,
  );
  return rows.map(toSummary);
}
