-- PostgreSQL twin of ../0122_chat_search_words_queue.sql. PostgreSQL's indexer learns the lexemes in
-- the statement that indexes the messages, so only a copied SQLite database (copy-store) fills it.
CREATE TABLE chat_messages_terms_pending (message_id BIGINT PRIMARY KEY);
