-- Messages a search indexed without learning their words (src/chats/message-index.ts): the search
-- that finds messages still queued puts them in the index at once, so that it finds them, and leaves
-- their words for chat_messages_terms (migration 0119) to the background drain, which tokenizes each
-- body a second time for them (13 of the 42 ms of CPU of a search that indexed 1,000 messages at a
-- million). Until the drain has learnt them, search as you type runs the prefix query, which needs no
-- list of words (src/chats/search-terms.ts).
CREATE TABLE chat_messages_terms_pending (message_id INTEGER PRIMARY KEY);
