// The chat list, newest first, in keyset pages. The key is the chat's internal id, which only grows,
// so chats created between two pages land before the cursor: none is skipped or repeated. Pinned and
// archived chats are listed apart (on the first page), so each chat shows up in one place only. Hidden
// chats (evaluation answers) are not listed anywhere, not even once pinned or archived: they open by id.
import type { Principal } from '../auth/index.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { CHAT_COLUMNS, toSummary, type ChatDeps, type ChatRowWithLabels } from './rows.ts';
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
export function chatHistory(deps: ChatDeps, principal: Principal, { cursor, limit = 40, cursorKey }: ChatHistoryInput): ChatHistoryResponse {
  const scope = { key: cursorKey, userId: principal.userId, orgId: principal.orgId };
  const after = cursor === undefined ? undefined : decodeCursor(scope, cursor);
  const rows = deps.db
    .prepare(
      `SELECT ${CHAT_COLUMNS} FROM chats c
       WHERE c.user_id = ? AND c.org_id = ? AND c.pinned_at IS NULL AND c.archived_at IS NULL AND c.hidden = 0 AND c.id < ?
       ORDER BY c.id DESC LIMIT ?`,
    )
    .all(principal.userId, principal.orgId, after ?? Number.MAX_SAFE_INTEGER, limit + 1) as ChatRowWithLabels[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const first = after === undefined;
  return {
    chats: page.map(toSummary),
    pinned: first ? pinnedChats(deps, principal) : [],
    archived: first ? archivedChats(deps, principal) : [],
    next_cursor: more ? encodeCursor(scope, page[page.length - 1]!.id) : null,
  };
}

function pinnedChats(deps: ChatDeps, principal: Principal) {
  const rows = deps.db
    .prepare(`SELECT ${CHAT_COLUMNS} FROM chats c WHERE c.user_id = ? AND c.org_id = ? AND c.pinned_at IS NOT NULL AND c.hidden = 0 ORDER BY c.pinned_at DESC, c.id DESC`)
    .all(principal.userId, principal.orgId) as ChatRowWithLabels[];
  return rows.map(toSummary);
}

function archivedChats(deps: ChatDeps, principal: Principal) {
  const rows = deps.db
    .prepare(
      `SELECT ${CHAT_COLUMNS} FROM chats c WHERE c.user_id = ? AND c.org_id = ? AND c.archived_at IS NOT NULL AND c.pinned_at IS NULL AND c.hidden = 0
       ORDER BY c.archived_at DESC, c.id DESC LIMIT ?`,
    )
    .all(principal.userId, principal.orgId, RECENT_ARCHIVED) as ChatRowWithLabels[];
  return rows.map(toSummary);
}
