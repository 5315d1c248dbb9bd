-- PostgreSQL twin of ../0119_chat_search_terms.sql: the lexemes of the search index, ordered by bytes
-- (COLLATE "C") so that a range of them is a prefix, as a tsquery's `:*` matches one.
CREATE TABLE chat_messages_terms (term TEXT COLLATE "C" PRIMARY KEY);

INSERT INTO chat_messages_terms (term) SELECT word FROM ts_stat('SELECT tsv FROM chat_messages_fts');

CREATE OR REPLACE FUNCTION chat_messages_fts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = OLD.id;
  DELETE FROM chat_messages_fts WHERE rowid = -OLD.id;
  INSERT INTO chat_messages_fts_pending (message_id)
    SELECT NEW.id FROM chats c WHERE c.id = NEW.chat_pk AND NEW.displayed = 1 AND c.hidden = 0;
  RETURN NULL;
END $$;
