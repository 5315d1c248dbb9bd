-- The words of the search index, for search as you type (src/chats/search-terms.ts): a prefix query
-- ("rev"*) makes FTS5 merge the doclists of every word with that prefix before it returns a first
-- row (28 ms at a million messages), while an OR of those words read in rowid order stops at the
-- newest matches (0.4 ms). This table finds the words, as FTS5's own tokenizer made them: the indexer
-- (src/chats/message-index.ts) adds the words of each message it indexes. Words are never removed:
-- one no message holds any more only adds an empty term to an OR.
CREATE TABLE chat_messages_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;

-- Backfill from the index itself: one pass over its terms (1.2 s at a million messages).
CREATE VIRTUAL TABLE chat_messages_terms_backfill USING fts5vocab(chat_messages_fts, 'col');
INSERT INTO chat_messages_terms (term) SELECT term FROM chat_messages_terms_backfill WHERE col = 'body';
DROP TABLE chat_messages_terms_backfill;

-- An edit queues the message again instead of indexing it itself, so that the indexer, which records
-- the words, is the only writer of the index. A search indexes the queue first, so it still finds the edit.
DROP TRIGGER chat_messages_fts_update;
CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content, displayed ON chat_messages BEGIN
  DELETE FROM chat_messages_fts_pending WHERE message_id = old.id;
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
  INSERT INTO chat_messages_fts_pending (message_id)
    SELECT new.id FROM chats c WHERE c.id = new.chat_pk AND new.displayed = 1 AND c.hidden = 0;
END;
