// Full-text search over the bodies of the caller's displayed messages (FTS5, bm25-ranked). The
// query is never passed as FTS syntax: every word becomes a quoted term, so operators, quotes,
// column filters and stray punctuation are searched as plain text.
import type { Principal } from '../auth/index.ts';
import type { ChatDeps } from './rows.ts';
import type { ChatSearchResponse, MessageRole } from './schemas.ts';

const OPEN = '\u0002';
const CLOSE = '\u0003';
const MAX_TERMS = 16;

/** The FTS5 scope token of an owner; the triggers of migration 0050 write the same value. */
export function scopeToken(orgId: string, userId: string): string {
  return `s${Buffer.from(`${orgId}/${userId}`, 'utf8').toString('hex')}`;
}

/** Turns free text into an FTS5 expression of quoted terms (all must match; the last may be a prefix). */
export function ftsTerms(q: string): string | undefined {
  const words = q
    .split(/\s+/)
    // Quotes would end the FTS string; control characters have no business in a search.
    // eslint-disable-next-line no-control-regex
    .map((w) => w.replace(/[\u0000-\u001f"]/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, MAX_TERMS);
  if (words.length === 0) return undefined;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

interface Hit {
  rowid: number;
  rank: number;
  snippet: string;
}

interface HitInfo {
  chat_id: string;
  title: string;
  updated_at: number;
  message_uuid: string;
  role: MessageRole;
}

/** The caller's best-matching chats, one hit (the best message) per chat. */
export function searchChats(deps: ChatDeps, principal: Principal, { q, limit = 30 }: { q: string; limit?: number }): ChatSearchResponse {
  const terms = ftsTerms(q);
  if (!terms) return { query: q, results: [] };
  const scope = scopeToken(principal.orgId, principal.userId).toLowerCase();
  // Several messages of one chat may match: read a few more hits than chats wanted.
  const hits = deps.db
    .prepare(
      `SELECT rowid, rank, snippet(chat_messages_fts, 0, '${OPEN}', '${CLOSE}', '…', 16) AS snippet
       FROM chat_messages_fts WHERE chat_messages_fts MATCH ? AND rank MATCH 'bm25(1.0, 0.0)'
       ORDER BY rank LIMIT ?`,
    )
    .all(`scope : "${scope}" AND body : (${terms})`, limit * 4) as Hit[];
  const info = deps.db.prepare(
    `SELECT c.chat_id, c.title, c.updated_at, m.message_uuid, m.role FROM chat_messages m JOIN chats c ON c.id = m.chat_pk
     WHERE m.id = ? AND c.user_id = ? AND c.org_id = ?`,
  );
  const seen = new Set<string>();
  const results: ChatSearchResponse['results'] = [];
  for (const hit of hits) {
    const row = info.get(hit.rowid, principal.userId, principal.orgId) as HitInfo | undefined;
    if (!row || seen.has(row.chat_id)) continue;
    seen.add(row.chat_id);
    results.push({ ...row, snippet: highlight(hit.snippet), score: -hit.rank });
    if (results.length >= limit) break;
  }
  return { query: q, results };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes the excerpt as HTML, then turns the match markers into <mark> tags. */
function highlight(snippet: string): string {
  return snippet
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!)
    .replaceAll(OPEN, '<mark>')
    .replaceAll(CLOSE, '</mark>');
}
