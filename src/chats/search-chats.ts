// Full-text search over the bodies of the caller's displayed messages, the same on both dialects
// (search-matches.ts reads the candidates: FTS5 on SQLite, tsvector on PostgreSQL). The query is never
// passed as search syntax: every word becomes a quoted term (a phrase of its tokens), so operators,
// quotes, column filters and stray punctuation are searched as plain text.
//
// Ranking contract: one hit (the best message) per chat; messages by BM25 score over the candidate
// window (rank.ts: term frequency and body length), ties to the newer message; chats in the order of
// their best message. Scores and snippets are computed here from the bodies, not by the database.
import type { Principal } from '../auth/index.ts';
import { indexPendingMessages } from './message-index.ts';
import { excerpt, scoreBodies } from './rank.ts';
import type { ChatDeps, ChatStore } from './rows.ts';
import type { ChatSearchResponse } from './schemas.ts';
import { findCandidates, fts5Terms, hitDetails } from './search-matches.ts';
import { completions } from './search-terms.ts';

const MAX_TERMS = 16;

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
  return words.length === 0 ? undefined : fts5Terms(words, prefix);
}

/**
 * The caller's best-matching chats, one hit (the best message) per chat. The candidates are the
 * newest RANK_WINDOW matches, so a common word costs about the same at a thousand messages as at a
 * million. The queue of messages not yet indexed is indexed first, so every written message is found.
 */
export async function searchChats(deps: ChatStore & Pick<ChatDeps, 'searchIndex'>, principal: Principal, { q, limit = 30 }: { q: string; limit?: number }): Promise<ChatSearchResponse> {
  const words = queryWords(q);
  if (words.length === 0) return { query: q, results: [] };
  // Their words are left to the drain, asked for here: learning them would cost about as much again
  // (message-index.ts); until then search as you type runs the prefix query.
  if ((await indexPendingMessages(deps.store, -1, { words: false })) > 0) deps.searchIndex?.nudge();
  // Whole words first: cheap at any size. The last word as a prefix (search as you type) runs only
  // when whole words find too few chats, through its indexed completions where they are few.
  let prefix = false;
  let candidates = await findCandidates(deps.store, principal, words, prefix);
  if (new Set(candidates.map((c) => c.chat_pk)).size < limit) {
    prefix = true;
    candidates = await findCandidates(deps.store, principal, words, prefix, await completions(deps.store, words));
  }
  const scores = scoreBodies(candidates.map((c) => c.content), words, { prefix });
  const order = candidates.map((c, i) => ({ c, score: scores[i]! })).sort((a, b) => b.score - a.score || b.c.id - a.c.id);
  const seen = new Set<number>();
  const best: typeof order = [];
  for (const hit of order) {
    if (seen.has(hit.c.chat_pk)) continue;
    seen.add(hit.c.chat_pk);
    best.push(hit);
    if (best.length >= limit) break;
  }
  const details = new Map((await hitDetails(deps.store, best.map(({ c }) => c.id))).map((d) => [d.id, d]));
  // A message deleted since its candidate was read has no details, and is left out.
  const results: ChatSearchResponse['results'] = best.flatMap(({ c, score }) => {
    const shown = details.get(c.id);
    if (!shown) return [];
    const { id: _id, ...hit } = shown;
    return [{ ...hit, snippet: excerpt(c.content, words, { prefix }), score }];
  });
  return { query: q, results };
}
