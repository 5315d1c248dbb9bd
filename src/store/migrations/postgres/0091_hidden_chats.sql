-- PostgreSQL twin of ../0091_hidden_chats.sql. A trigger's WHEN may not hold a subquery here, so the
-- hidden-chat test moves into the queue function.
ALTER TABLE chats ADD COLUMN hidden BIGINT NOT NULL DEFAULT 0;

DROP INDEX chats_history;
CREATE INDEX chats_history ON chats(user_id, org_id, id) WHERE pinned_at IS NULL AND archived_at IS NULL AND hidden = 0;

CREATE OR REPLACE FUNCTION chat_messages_fts_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chats WHERE id = NEW.chat_pk AND hidden = 1) THEN
    INSERT INTO chat_messages_fts_pending (message_id) VALUES (NEW.id);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION chat_messages_fts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = OLD.id;
  DELETE FROM chat_messages_fts WHERE rowid = -OLD.id;
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -NEW.id, NEW.content, chat_messages_fts_scope(c.org_id, c.user_id) FROM chats c
    WHERE c.id = NEW.chat_pk AND NEW.displayed = 1 AND c.hidden = 0;
  RETURN NULL;
END $$;
