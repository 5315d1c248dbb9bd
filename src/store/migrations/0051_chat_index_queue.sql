-- Messages are indexed for search off the write path (src/chats/message-index.ts): an FTS5 commit
-- writes a new segment, ~0.1-0.3 ms that every agent run paid twice (question and answer). The insert
-- trigger now only queues the message; the queue is indexed in one transaction before any search
-- reads the index, and every second. Edits and deletes still change the index at once.
CREATE TABLE chat_messages_fts_pending (message_id INTEGER PRIMARY KEY);

DROP TRIGGER chat_messages_fts_insert;
CREATE TRIGGER chat_messages_fts_queue AFTER INSERT ON chat_messages WHEN new.displayed = 1 BEGIN
  INSERT INTO chat_messages_fts_pending (message_id) VALUES (new.id);
END;

DROP TRIGGER chat_messages_fts_update;
CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content, displayed ON chat_messages BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = old.id;
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -new.id, new.content, 's' || hex(c.org_id || '/' || c.user_id) FROM chats c WHERE c.id = new.chat_pk AND new.displayed = 1;
END;

DROP TRIGGER chat_messages_fts_delete;
CREATE TRIGGER chat_messages_fts_delete AFTER DELETE ON chat_messages BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = old.id;
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
END;
