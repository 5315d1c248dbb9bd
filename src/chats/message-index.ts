// Search indexing of chat messages, off the write path: a message's insert only queues it (migration
// 0051), and this indexes the queue in one FTS5 transaction. Search calls it first, so it always
// reads every message written; the service also calls it every second, so the queue stays short.
import { statement, type Db } from '../store/index.ts';

/** Indexes every queued message; returns how many were indexed. */
export function indexPendingMessages(db: Db): number {
  if (!statement(db, 'SELECT 1 FROM chat_messages_fts_pending LIMIT 1').get()) return 0;
  return db.transaction(() => {
    const { changes } = statement(
      db,
      `INSERT INTO chat_messages_fts (rowid, body, scope)
       SELECT -m.id, m.content, 's' || hex(c.org_id || '/' || c.user_id)
       FROM chat_messages_fts_pending p JOIN chat_messages m ON m.id = p.message_id JOIN chats c ON c.id = m.chat_pk
       WHERE m.displayed = 1`,
    ).run();
    statement(db, 'DELETE FROM chat_messages_fts_pending').run();
    return changes;
  })();
}
