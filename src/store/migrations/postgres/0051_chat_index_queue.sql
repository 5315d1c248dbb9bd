-- PostgreSQL twin of ../0051_chat_index_queue.sql: an insert only queues the message; the indexer
-- (src/chats/message-index.ts) fills chat_messages_fts from the queue. Edits and deletes still
-- change the index at once.
CREATE TABLE chat_messages_fts_pending (message_id BIGINT PRIMARY KEY);

DROP TRIGGER chat_messages_fts_insert ON chat_messages;
DROP FUNCTION chat_messages_fts_insert();
CREATE FUNCTION chat_messages_fts_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chat_messages_fts_pending (message_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER chat_messages_fts_queue AFTER INSERT ON chat_messages
  FOR EACH ROW WHEN (NEW.displayed = 1) EXECUTE FUNCTION chat_messages_fts_queue();

CREATE OR REPLACE FUNCTION chat_messages_fts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = OLD.id;
  DELETE FROM chat_messages_fts WHERE rowid = -OLD.id;
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -NEW.id, NEW.content, chat_messages_fts_scope(c.org_id, c.user_id) FROM chats c WHERE c.id = NEW.chat_pk AND NEW.displayed = 1;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION chat_messages_fts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = OLD.id;
  DELETE FROM chat_messages_fts WHERE rowid = -OLD.id;
  RETURN NULL;
END $$;
