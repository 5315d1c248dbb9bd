// The candidate reads of chat search, one per dialect, under one contract: the caller's displayed
// messages (scope token of organization and user, then the chat's owner checked again) whose body
// holds every query word as a phrase of its tokens (with `prefix`, the last token of the last word as
// a prefix), the newest RANK_WINDOW of them (by message id). Ranking is not done here but in rank.ts,
// on these bodies, so both dialects rank alike once they agree on the candidates.
// - SQLite: FTS5 (unicode61, remove_diacritics 2), each word a quoted FTS5 string.
// - PostgreSQL: the tsvector of migration 0050 (GIN), each word through the same punctuation rule and
//   text search configuration as the bodies, as a phrase query (phraseto_tsquery), `:*` for the prefix.
import { sql, type RawBuilder } from 'kysely';
import type { Principal } from '../auth/index.ts';
import { onPostgres, type Executor } from '../store/index.ts';
import type { MessageRole } from './schemas.ts';

/** How many of the newest matches are ranked; rarer words are ranked over every match. */
export const RANK_WINDOW = 500;

/** PostgreSQL: how many of the owner's newest index rows are tried first (see findCandidates). */
const RECENT = 4 * RANK_WINDOW;

/** A matching message: what ranking needs. What a hit shows is read for the chosen few (hitDetails). */
export interface Candidate {
  id: number;
  content: string;
  chat_pk: number;
}

/** What a hit shows of its message and chat. */
export interface HitDetails {
  id: number;
  chat_id: string;
  title: string;
  updated_at: number;
  message_uuid: string;
  role: MessageRole;
}

/**
 * The scope token of an owner, as the triggers of migrations 0050/0051 and message-index.ts write it:
 * 's' and the upper-case hex of "org/user" (FTS5 folds case; PostgreSQL compares it as written).
 */
export function scopeToken(orgId: string, userId: string): string {
  return `s${Buffer.from(`${orgId}/${userId}`, 'utf8').toString('hex').toUpperCase()}`;
}

/** Turns cleaned words into an FTS5 expression of quoted terms, all of which must match; with `prefix`, the last one as a prefix. */
export function fts5Terms(words: string[], prefix: boolean): string {
  return words.map((w, i) => `"${w}"${prefix && i === words.length - 1 ? '*' : ''}`).join(' ');
}

const fts5String = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** The same with the last word replaced by any of its completions (search-terms.ts). */
function fts5WithCompletions(words: string[], completions: string[]): string {
  return [...words.slice(0, -1).map(fts5String), `(${completions.map(fts5String).join(' OR ')})`].join(' AND ');
}

const CANDIDATE_COLUMNS = sql`m.id, m.content, m.chat_pk`;

/**
 * The details of the hits shown, by message id (in no order). Read apart from the candidates: at a
 * million messages the chat's columns of all RANK_WINDOW candidates cost more than their ranking.
 */
export async function hitDetails(x: Executor, ids: number[]): Promise<HitDetails[]> {
  if (ids.length === 0) return [];
  return x.all(sql<HitDetails>`SELECT m.id, c.chat_id, c.title, c.updated_at, m.message_uuid, m.role
       FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE m.id IN (${sql.join(ids)})`);
}

/**
 * The newest RANK_WINDOW of the caller's messages matching every word (see the contract above). With
 * `completions` (and `prefix`), the last word's indexed completions stand for it: the same matches.
 */
export async function findCandidates(x: Executor, principal: Principal, words: string[], prefix: boolean, completions?: string[]): Promise<Candidate[]> {
  if (completions?.length === 0) return [];
  if (!onPostgres(x)) {
    const terms = completions ? fts5WithCompletions(words, completions) : fts5Terms(words, prefix);
    return fts5Candidates(x, principal, terms);
  }
  const query = completions ? await tsQueryWithCompletions(x, words, completions) : await tsQuery(x, words, prefix);
  if (query === undefined) return [];
  // FTS5 merges the scope's and the words' doclists in rowid order; PostgreSQL has no such index, and
  // its planner misjudges prefixes and words common for one owner only. So the common case is tried
  // first at a bounded cost: the owner's newest RECENT index rows, filtered. If they hold a full window
  // of matches, these are the newest matches of all; otherwise the words are rare enough for the GIN index.
  const recent = await x.all(postgresHits(principal, sql`SELECT rowid FROM (
         SELECT rowid, tsv FROM chat_messages_fts WHERE scope = ${scopeToken(principal.orgId, principal.userId)} ORDER BY rowid LIMIT ${RECENT}) r
       WHERE tsv @@ CAST(${query} AS tsquery) ORDER BY rowid LIMIT ${RANK_WINDOW}`));
  if (recent.length >= RANK_WINDOW) return recent;
  return x.all(postgresHits(principal, sql`SELECT rowid FROM (
         SELECT rowid, scope FROM chat_messages_fts WHERE tsv @@ CAST(${query} AS tsquery) OFFSET 0) g
       WHERE scope = ${scopeToken(principal.orgId, principal.userId)} ORDER BY rowid LIMIT ${RANK_WINDOW}`));
}

/** SQLite: of the newest indexed messages, how many are read to see whether the owner wrote most of them. */
const SAMPLE = 64;

/** SQLite: at most this many of anyone's matches are read before the owner's scope token is matched instead. */
const SCAN = 2 * RANK_WINDOW;

/**
 * FTS5 ANDs the owner's scope token with the words by stepping through the token's doclist, which
 * holds every message of the owner: over the whole history when the words are rare together (FTS5's
 * read of `Books Sports` at a million messages of one owner: 13.6 ms with the token, 1.5 without). Where the owner
 * wrote most of the index (one person's service, the bench), the words' own matches are read instead
 * and the owner checked on the rows, which costs a row lookup per match of someone else's: few when
 * they are few. At most SCAN matches are read that way; when they hold neither the owner's newest
 * RANK_WINDOW matches nor every match, the scope token decides after all. The same candidates either way.
 */
async function fts5Candidates(x: Executor, principal: Principal, terms: string): Promise<Candidate[]> {
  const scope = scopeToken(principal.orgId, principal.userId);
  const sample = await x.one<{ owned: number }>(sql`SELECT count(*) AS owned FROM (
       SELECT scope FROM chat_messages_fts ORDER BY rowid LIMIT ${SAMPLE}) WHERE scope = ${scope}`);
  if (2 * (sample?.owned ?? 0) > SAMPLE) {
    const hits = await x.all<Candidate & { scanned: number }>(fts5WordHits(principal, terms));
    // Without a row, whether the scan ran out is unknown: the scope token decides (cheap when nothing matches).
    if (hits.length === RANK_WINDOW || (hits.length > 0 && hits[0]!.scanned < SCAN)) return hits.map(({ scanned: _scanned, ...c }) => c);
  }
  return x.all(fts5Hits(principal, `scope : "${scope}" AND body : (${terms})`));
}

// FTS5 rowids are negated message ids: reading them in ascending order is newest first and stops early.
function fts5Hits(principal: Principal, match: string) {
  return sql<Candidate>`WITH hits AS (SELECT rowid FROM chat_messages_fts WHERE chat_messages_fts MATCH ${match} ORDER BY rowid LIMIT ${RANK_WINDOW})
       SELECT ${CANDIDATE_COLUMNS}
       FROM hits JOIN chat_messages m ON m.id = -hits.rowid JOIN chats c ON c.id = m.chat_pk
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId}`;
}

// The newest SCAN matches of anyone (their rowids only, materialized to be counted), then the owner's
// among them in the same order, each with how many were read.
function fts5WordHits(principal: Principal, terms: string) {
  return sql<Candidate & { scanned: number }>`WITH scan AS MATERIALIZED (SELECT rowid FROM chat_messages_fts WHERE chat_messages_fts MATCH ${`body : (${terms})`} ORDER BY rowid LIMIT ${SCAN})
       SELECT ${CANDIDATE_COLUMNS}, (SELECT count(*) FROM scan) AS scanned
       FROM scan CROSS JOIN chat_messages m ON m.id = -scan.rowid CROSS JOIN chats c ON c.id = m.chat_pk
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId} ORDER BY scan.rowid LIMIT ${RANK_WINDOW}`;
}

/**
 * The words as one tsquery, in its text form: each through the bodies' punctuation rule and text
 * search configuration as a phrase, joined with &, the prefix mark on the last. Undefined when a word
 * leaves no lexeme (a token PostgreSQL refuses to index, over 2047 bytes): it matches nothing, as on
 * FTS5, rather than being dropped from the query.
 */
async function tsQuery(x: Executor, words: string[], prefix: boolean): Promise<string | undefined> {
  const row = await x.one<{ query: string }>(sql`SELECT string_agg('(' || t::text || CASE WHEN n = ${prefix ? words.length : 0} THEN ':*' ELSE '' END || ')', ' & ' ORDER BY n) AS query
       FROM (SELECT n, phraseto_tsquery('sextant_fts', chat_messages_fts_words(w)) AS t FROM unnest(CAST(${words} AS text[])) WITH ORDINALITY AS u(w, n)) words
       HAVING min(numnode(t)) > 0`);
  return row?.query;
}

// The lexemes, quoted for tsquery's text form (a quote doubled, a backslash escaped), ORed.
async function tsQueryWithCompletions(x: Executor, words: string[], completions: string[]): Promise<string | undefined> {
  const any = `(${completions.map((c) => `'${c.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`).join(' | ')})`;
  if (words.length === 1) return any;
  const others = await tsQuery(x, words.slice(0, -1), false);
  return others === undefined ? undefined : `${others} & ${any}`;
}

// The candidates of the rowids `hits` selects. The tsquery is a parameter, not computed inside the
// statement, so that the planner sees it.
function postgresHits(principal: Principal, hits: RawBuilder<unknown>) {
  return sql<Candidate>`WITH hits AS (${hits})
       SELECT ${CANDIDATE_COLUMNS}
       FROM hits JOIN chat_messages m ON m.id = -hits.rowid JOIN chats c ON c.id = m.chat_pk
       WHERE c.user_id = ${principal.userId} AND c.org_id = ${principal.orgId}`;
}
