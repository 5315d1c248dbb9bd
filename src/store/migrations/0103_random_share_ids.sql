-- A chat's public share had the chat's own chat_id as its id (chosen by the client, so guessable, and
-- revived by sharing again). Shares now get a random id each time a chat is shared (issue 33). The
-- existing chat shares get a new random id here (256 bits of SQLite's CSPRNG): their old links, the
-- chat ids, stop working on purpose; their owners find the new link in the share dialog. Shares of
-- one message already had a random id and keep it.
UPDATE chat_shares SET share_id = lower(hex(randomblob(32))) WHERE message_uuid IS NULL;
-- One whole-chat share per chat: sharing again replaces it in one statement (an upsert on this index).
CREATE UNIQUE INDEX chat_shares_whole_chat ON chat_shares(chat_pk) WHERE message_uuid IS NULL;
