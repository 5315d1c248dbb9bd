// Full-text search over the bodies of the caller's displayed messages (FTS5, BM25-ranked). The
// query is never passed as FTS syntax: every word becomes a quoted term, so operators, quotes,
// column filters and stray punctuation are searched as plain text.
import type { Principal } from '../auth/index.ts';
import { indexPendingMessages } from './message-index.ts';
import { excerpt, scoreBodies } from './rank.ts';
import type { ChatDeps } from './rows.ts';
import type { ChatSearchResponse, MessageRole } from './schemas.ts';

const MAX_TERMS = 16;

/** The FTS5 scope token of an owner; the triggers of migrations 0050/0051 and message-index.ts write the same value. */
export function scopeToken(orgId: string, userId: string): string {
  return `s${Buffer.from(`${orgId}/${userId}`, 'utf8').toString('hex')}`;
}

/** The words of a query, cleaned of quotes and control characters; at most MAX_TERMS. */
export function queryWords(q: string): string[] {
  return q
    .split(/\s+/)
    // Quotes would end the FTS string; control characters have no business in a search.
    // eslint-disable-next-line no-control-regex
    .map((w) => w.replace(/[\u0000-\u001f"]/g, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, MAX_TERMS);
}

/** Turns free text into an FTS5 expression of quoted terms, all of which must match; with `prefix`, the last one as a prefix. */
export function ftsTerms(q: string, { prefix = false }: { prefix?: boolean } = {}): string | undefined {
  const words = queryWords(q);
  if (words.length === 0) return undefined;
  return words.map((w, i) => `"${w}"${prefix && i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** How many of the newest matches are ranked; rarer words are ranked over every match. */
export const RANK_WINDOW = 500;

interface Candidate {
  id: number;
  content: string;
  chat_id: string;
  title: string;
  updated_at: number;
  message_uuid: string;
  role: MessageRole;
}

/**
 * The caller's best-matching chats, one hit (the best message) per chat. Matches are read newest
 * first from the index (FTS rowids are negated message ids, so that is ascending order, which
 * stops early); the newest RANK_WINDOW are scored with BM25 (rank.ts), so a common word costs
 * about the same at a thousand messages as at a million.
 */
export function searchChats(deps: ChatDeps, principal: Principal, { q, limit = 30 }: { q: string; limit?: number }): ChatSearchResponse {
  const words = queryWords(q);
  if (words.length === 0) return { query: q, results: [] };
  // Whole words first: cheap at any size. A prefix query (search as you type) merges the doclists
  // of every word with that prefix, so it runs only when whole words find too few chats.
  let prefix = false;
  let candidates = findCandidates(deps, principal, ftsTerms(q)!);
  if (new Set(candidates.map((c) => c.chat_id)).size < limit) {
    prefix = true;
    candidates = findCandidates(deps, principal, ftsTerms(q, { prefix })!);
  }
  const scores = scoreBodies(candidates.map((c) => c.content), words, { prefix });
  const order = candidates.map((c, i) => ({ c, score: scores[i]! })).sort((a, b) => b.score - a.score || b.c.id - a.c.id);
  const seen = new Set<string>();
  const results: ChatSearchResponse['results'] = [];
  for (const { c, score } of order) {
    if (seen.has(c.chat_id)) continue;
    seen.add(c.chat_id);
    const { id: _id, content, ...hit } = c;
    results.push({ ...hit, snippet: excerpt(content, words, { prefix }), score });
    if (results.length >= limit) break;
  }
  return { query: q, results };
}

function findCandidates(deps: ChatDeps, principal: Principal, terms: string): Candidate[] {
  indexPendingMessages(deps.db);
  const match = `scope : "${scopeToken(principal.orgId, principal.userId).toLowerCase()}" AND body : (${terms})`;
  return deps.db
    .prepare(
      `WITH hits AS (SELECT rowid FROM chat_messages_fts WHERE chat_messages_fts MATCH ? ORDER BY rowid LIMIT ?)
       SELECT m.id, m.content, c.chat_id, c.title, c.updated_at, m.message_uuid, m.role
       FROM hits JOIN chat_messages m ON m.id = -hits.rowid JOIN chats c ON c.id = m.chat_pk
       WHERE c.user_id = ? AND c.org_id = ?`,
    )
    .all(match, RANK_WINDOW, principal.userId, principal.orgId) as Candidate[];
}
