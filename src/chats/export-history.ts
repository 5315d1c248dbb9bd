// Export of conversation history as rows (one per displayed message), read in keyset batches so
// no connection (SQLite's single one, a pooled PostgreSQL one) is held by an open cursor while a slow
// client reads.
import { sql } from 'kysely';
import { hasRole, type Principal } from '../auth/index.ts';
import { ExportOfOthersForbidden } from './errors.ts';
import type { ChatUsers } from './ports.ts';
import type { ChatStore } from './rows.ts';
import type { Answer, MessageRole } from './schemas.ts';

export interface ExportFilter {
  /** Inclusive lower bound, ms since the epoch. */
  from?: number;
  /** Exclusive upper bound, ms since the epoch. */
  to?: number;
  /** Admins: one user's messages. Others always get their own, and may name only themselves (else 403). */
  userId?: string;
}

/** One exported row; `message_id` is the message's message_uuid. */
export interface ExportRow {
  message_id: string;
  chat_id: string;
  chat_title: string;
  user_id: string;
  user_email: string;
  role: MessageRole;
  content: string;
  sql: string | null;
  connection_id: string | null;
  credits: number | null;
  copied_from_chat_id: string | null;
  environment: string | null;
  created_at: string;
}

export const EXPORT_COLUMNS: (keyof ExportRow)[] = ['message_id', 'chat_id', 'chat_title', 'user_id', 'user_email', 'role', 'content', 'sql', 'connection_id', 'credits', 'copied_from_chat_id', 'environment', 'created_at'];

const BATCH = 500;

interface Raw {
  id: number;
  message_uuid: string;
  chat_id: string;
  title: string;
  user_id: string;
  role: MessageRole;
  content: string;
  answer: string | null;
  credits: number | null;
  copied_from_chat_id: string | null;
  environment_name: string | null;
  created_at: number;
}

/** What an export reads: the chat tables, and the authors' addresses through the users port. */
export type ExportDeps = ChatStore & { users: ChatUsers };

/**
 * The export rows the caller may see in the current organization, oldest first. A non-admin naming
 * another user is refused before anything is read (not quietly answered with their own rows).
 */
export function exportHistory(deps: ExportDeps, principal: Principal, filter: ExportFilter = {}): AsyncGenerator<ExportRow> {
  const admin = hasRole(principal, 'admin');
  if (!admin && filter.userId !== undefined && filter.userId !== principal.userId) throw new ExportOfOthersForbidden();
  return exportRows(deps, principal, admin ? (filter.userId ?? null) : principal.userId, filter);
}

async function* exportRows(deps: ExportDeps, principal: Principal, userId: string | null, filter: ExportFilter): AsyncGenerator<ExportRow> {
  const byUser = userId === null ? sql`` : sql`AND c.user_id = ${userId}`;
  let after = 0;
  for (;;) {
    const rows = await deps.store.all(
      sql<Raw>`SELECT m.id, m.message_uuid, c.chat_id, c.title, c.user_id, m.role, m.content, m.answer, m.credits, m.copied_from_chat_id,
              c.environment_name, m.created_at
       FROM chat_messages m JOIN chats c ON c.id = m.chat_pk
       WHERE c.org_id = ${principal.orgId} ${byUser} AND m.displayed = 1 AND m.created_at >= ${filter.from ?? 0} AND m.created_at < ${filter.to ?? Number.MAX_SAFE_INTEGER} AND m.id > ${after}
       ORDER BY m.id LIMIT ${BATCH}`,
    );
    const emails = await deps.users.emails(rows.map((r) => r.user_id));
    for (const r of rows) yield toRow(r, emails.get(r.user_id) ?? '');
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
    // Let other requests use the connection between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function toRow(r: Raw, email: string): ExportRow {
  const answer = r.answer === null ? undefined : (JSON.parse(r.answer) as Answer);
  return {
    message_id: r.message_uuid,
    chat_id: r.chat_id,
    chat_title: r.title,
    user_id: r.user_id,
    user_email: email,
    role: r.role,
    content: r.content,
    sql: answer?.sql ?? answer?.tables[0]?.sql ?? null,
    connection_id: answer?.connection_id ?? answer?.tables[0]?.connection_id ?? null,
    credits: r.credits,
    copied_from_chat_id: r.copied_from_chat_id,
    environment: r.environment_name,
    created_at: new Date(r.created_at).toISOString(),
  };
}
