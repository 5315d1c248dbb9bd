// Search indexing of chat messages, off the write path: a message's insert only queues it (migration
// 0051), and this indexes the queue. Search indexes the whole queue first, so it always reads every
// message written; the service indexes it every second in bounded slices, one per event-loop turn, so
// that a busy second's queue (hundreds of questions and answers) never blocks the loop for long.
import { type Db, statement, transact } from '../store/index.ts';

/** Messages indexed per turn of the background indexer: about a millisecond of work. */
const SLICE = 50;

/** Indexes the oldest queued messages, at most `limit` (all by default), in one transaction; returns how many were indexed. */
export function indexPendingMessages(db: Db, limit = -1): number {
  if (!statement(db, 'SELECT 1 FROM chat_messages_fts_pending LIMIT 1').get()) return 0;
  return transact(db, () => {
    const { changes } = statement(
      db,
      `INSERT INTO chat_messages_fts (rowid, body, scope)
       SELECT -m.id, m.content, 's' || hex(c.org_id || '/' || c.user_id)
       FROM (SELECT message_id FROM chat_messages_fts_pending ORDER BY message_id LIMIT ?) p
       JOIN chat_messages m ON m.id = p.message_id JOIN chats c ON c.id = m.chat_pk
       WHERE m.displayed = 1`,
    ).run(limit);
    statement(db, 'DELETE FROM chat_messages_fts_pending WHERE message_id IN (SELECT message_id FROM chat_messages_fts_pending ORDER BY message_id LIMIT ?)').run(limit);
    return changes;
  });
}

/** Indexes the whole queue a slice per turn of the event loop; settles when the queue is empty. */
export async function indexQueueInSlices(db: Db, slice = SLICE): Promise<void> {
  // Every queued message is displayed and exists (the triggers keep the queue right), so a slice
  // that indexed nothing found the queue empty.
  while (indexPendingMessages(db, slice) > 0) await new Promise((resolve) => setImmediate(resolve));
}
