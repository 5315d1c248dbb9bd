-- PostgreSQL twin of ../0103_random_share_ids.sql: existing chat shares get a new random id (two
-- gen_random_uuid(), 244 random bits from the server's strong random source); the chat ids stop
-- working as share links. Shares of one message keep their random id.
UPDATE chat_shares SET share_id = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') WHERE message_uuid IS NULL;
CREATE UNIQUE INDEX chat_shares_whole_chat ON chat_shares(chat_pk) WHERE message_uuid IS NULL;
