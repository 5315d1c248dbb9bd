// Search indexing of chat messages, off the write path: a message's insert only queues it (migration
// 0051), and this indexes the queue. Search indexes the whole queue first, so it always reads every
// message written; the service drains it as messages are written (search-indexer.ts) in bounded slices,
// one per event-loop turn, so that a burst of questions and answers never blocks the loop for long.
import { sql, type RawBuilder } from 'kysely';
import { onPostgres, type Executor } from '../store/index.ts';

/** Messages indexed per turn of the background indexer: about a millisecond of work. */
const SLICE = 50;

/**
 * Indexes the oldest queued messages, at most `limit` (all by default), in one transaction; returns
 * how many were indexed. On SQLite the work is done when the call returns (the promise only carries
 * the count). With `words: false` (a search, which must find them now), SQLite leaves learning their
 * words to the drain (learnPendingWords).
 */
export async function indexPendingMessages(x: Executor, limit = -1, { words = true }: { words?: boolean } = {}): Promise<number> {
  return onPostgres(x) ? indexOnPostgres(x, limit) : indexOnSqlite(x, limit, words);
}

// The slice's words, as FTS5 tokenizes them, come from a scratch FTS5 table of this connection
// (temp, in memory, no positions): its vocabulary is added to chat_messages_terms (migration 0119),
// then it is emptied. About 0.3 ms a slice of 50 messages; 13 ms for a search's queue of 1,000 at a
// million messages, beside 17 ms for the index itself.
const SCRATCH = sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.chat_messages_new_bodies USING fts5(body, content = '', detail = none, tokenize = 'unicode61 remove_diacritics 2')`;
const SCRATCH_TERMS = sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.chat_messages_new_terms USING fts5vocab(temp, chat_messages_new_bodies, 'row')`;

/** The statements that add the words of the messages `from` selects (`FROM ... m ...`) to chat_messages_terms. */
function learnWords(from: RawBuilder<unknown>) {
  return [
    SCRATCH,
    SCRATCH_TERMS,
    sql`INSERT INTO temp.chat_messages_new_bodies (rowid, body) SELECT -m.id, m.content ${from}`,
    sql`INSERT OR IGNORE INTO chat_messages_terms (term) SELECT term FROM temp.chat_messages_new_terms`,
    sql`INSERT INTO temp.chat_messages_new_bodies (chat_messages_new_bodies) VALUES ('delete-all')`,
  ];
}

async function indexOnSqlite(x: Executor, limit: number, words: boolean): Promise<number> {
  // CROSS JOIN keeps the queue the outer loop: with the limit a bound parameter (unknown to the planner)
  // SQLite 3.53 otherwise scans every message against a Bloom filter of the queue, for a slice of 50 as
  // for the whole queue (390 and 315 ms at a million messages; 0.2 and 5.3 ms so).
  const head = sql`SELECT message_id FROM chat_messages_fts_pending ORDER BY message_id LIMIT ${limit}`;
  const queued = sql`FROM (${head}) p CROSS JOIN chat_messages m ON m.id = p.message_id CROSS JOIN chats c ON c.id = m.chat_pk
       WHERE m.displayed = 1`;
  // The first statement is required: an empty queue rolls back a transaction that only read.
  const done = await x.batch(
    [
      sql`SELECT 1 FROM chat_messages_fts_pending LIMIT 1`,
      sql`INSERT INTO chat_messages_fts (rowid, body, scope) SELECT -m.id, m.content, 's' || hex(c.org_id || '/' || c.user_id) ${queued}`,
      ...(words ? learnWords(queued) : [sql`INSERT OR IGNORE INTO chat_messages_terms_pending (message_id) ${head}`]),
      sql`DELETE FROM chat_messages_fts_pending WHERE message_id IN (${head})`,
    ],
    { require: [0] },
  );
  return done.ok ? done.results[1]!.changes : 0;
}

/**
 * Learns the words of at most `limit` of the messages a search indexed without them (all by default),
 * in one transaction; returns how many were taken. A message deleted or edited since is only dropped
 * (an edit queues it again). Only SQLite's searches leave such messages; PostgreSQL receives them
 * from a copied SQLite database (copy-store).
 */
export async function learnPendingWords(x: Executor, limit = -1): Promise<number> {
  if (onPostgres(x)) return learnOnPostgres(x, limit);
  const head = sql`SELECT message_id FROM chat_messages_terms_pending ORDER BY message_id LIMIT ${limit}`;
  const done = await x.batch(
    [
      sql`SELECT 1 FROM chat_messages_terms_pending LIMIT 1`,
      ...learnWords(sql`FROM (${head}) p CROSS JOIN chat_messages m ON m.id = p.message_id`),
      sql`DELETE FROM chat_messages_terms_pending WHERE message_id IN (${head})`,
    ],
    { require: [0] },
  );
  return done.ok ? done.results[done.results.length - 1]!.changes : 0;
}

// The lexemes of the indexed rows, as indexOnPostgres adds them.
async function learnOnPostgres(x: Executor, limit: number): Promise<number> {
  const row = await x.one<{ n: number }>(sql`WITH taken AS (
       DELETE FROM chat_messages_terms_pending WHERE message_id IN (
         SELECT message_id FROM chat_messages_terms_pending ORDER BY message_id LIMIT ${limit < 0 ? null : limit} FOR UPDATE SKIP LOCKED)
       RETURNING message_id),
     terms AS (INSERT INTO chat_messages_terms (term)
       SELECT DISTINCT lexeme FROM taken JOIN chat_messages_fts f ON f.rowid = -taken.message_id, unnest(f.tsv) ORDER BY lexeme
       ON CONFLICT (term) DO NOTHING)
     SELECT CAST(count(*) AS INTEGER) AS n FROM taken`);
  return row?.n ?? 0;
}

// Replicas index the same queue: each takes the rows no other holds (SKIP LOCKED); a row an edit
// queued again while another replica was indexing it is written with the edited body. The lexemes of
// what was indexed are added to chat_messages_terms (migration 0119) in byte order, so that two
// replicas adding the same ones wait on each other in one order and never deadlock. A negative limit
// means the whole queue.
async function indexOnPostgres(x: Executor, limit: number): Promise<number> {
  const row = await x.one<{ n: number }>(sql`WITH taken AS (
       DELETE FROM chat_messages_fts_pending WHERE message_id IN (
         SELECT message_id FROM chat_messages_fts_pending ORDER BY message_id LIMIT ${limit < 0 ? null : limit} FOR UPDATE SKIP LOCKED)
       RETURNING message_id),
     indexed AS (INSERT INTO chat_messages_fts (rowid, body, scope)
       SELECT -m.id, m.content, chat_messages_fts_scope(c.org_id, c.user_id)
       FROM taken JOIN chat_messages m ON m.id = taken.message_id JOIN chats c ON c.id = m.chat_pk
       WHERE m.displayed = 1
       ON CONFLICT (rowid) DO UPDATE SET body = excluded.body, scope = excluded.scope
       RETURNING tsv),
     terms AS (INSERT INTO chat_messages_terms (term)
       SELECT DISTINCT lexeme FROM indexed, unnest(indexed.tsv) ORDER BY lexeme
       ON CONFLICT (term) DO NOTHING)
     SELECT CAST(count(*) AS INTEGER) AS n FROM indexed`);
  return row?.n ?? 0;
}

/**
 * Indexes the whole queue a slice per turn of the event loop, then learns the words a search left
 * (learnPendingWords) likewise; settles when both are empty.
 */
export async function indexQueueInSlices(x: Executor, slice = SLICE): Promise<void> {
  // Every queued message is displayed and exists (the triggers keep the queue right), so a slice
  // that indexed nothing found the queue empty.
  while ((await indexPendingMessages(x, slice)) > 0) await nextTurn();
  while ((await learnPendingWords(x, slice)) > 0) await nextTurn();
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
