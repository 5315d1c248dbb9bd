-- Hidden chats: conversations the service holds for a user without listing them in the user's history
-- or search (the answers of evaluation runs). They open by id like any chat of the user.
ALTER TABLE chats ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

DROP INDEX chats_history;
CREATE INDEX chats_history ON chats(user_id, org_id, id) WHERE pinned_at IS NULL AND archived_at IS NULL AND hidden = 0;

-- Messages of hidden chats never enter the search index.
DROP TRIGGER chat_messages_fts_queue;
CREATE TRIGGER chat_messages_fts_queue AFTER INSERT ON chat_messages
  WHEN new.displayed = 1 AND NOT EXISTS (SELECT 1 FROM chats WHERE id = new.chat_pk AND hidden = 1) BEGIN
  INSERT INTO chat_messages_fts_pending (message_id) VALUES (new.id);
END;

DROP TRIGGER chat_messages_fts_update;
CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content, displayed ON chat_messages BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = old.id;
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -new.id, new.content, 's' || hex(c.org_id || '/' || c.user_id) FROM chats c WHERE c.id = new.chat_pk AND new.displayed = 1 AND c.hidden = 0;
END;
