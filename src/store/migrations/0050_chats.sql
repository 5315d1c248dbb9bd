-- Chats and their messages, labels, feedback and public shares (src/chats owns this SQL).
-- `chat_id` is chosen by the client, so it is unique per organization only; the integer `id` is the
-- internal key (monotonic thanks to AUTOINCREMENT, which makes it a stable keyset for history pages).

CREATE TABLE chats (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  chat_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT '',
  -- 1 for chats of the agent (pair page size 1 on the first page), 0 for plain query chats.
  agentic INTEGER NOT NULL DEFAULT 1,
  -- Environment a chat ran in (id and its name as the tag shown to people); NULL = production.
  environment_id TEXT,
  environment_name TEXT,
  pinned_at INTEGER,
  archived_at INTEGER,
  recently_completed INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (org_id, chat_id)
);
-- History pages: the plain list excludes pinned and archived chats (they have their own lists).
CREATE INDEX chats_history ON chats(user_id, org_id, id) WHERE pinned_at IS NULL AND archived_at IS NULL;
CREATE INDEX chats_owner ON chats(user_id, org_id, id);
CREATE INDEX chats_pinned ON chats(user_id, org_id, pinned_at) WHERE pinned_at IS NOT NULL;
CREATE INDEX chats_archived ON chats(user_id, org_id, archived_at) WHERE archived_at IS NOT NULL;

CREATE TABLE chat_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  chat_pk INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  message_uuid TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
  content TEXT NOT NULL,
  -- Order within the chat; rewritten by save_message_order, gaps allowed after deletes.
  position INTEGER NOT NULL,
  -- 0 for messages kept for the agent's context but never shown (nor shared, nor searched).
  displayed INTEGER NOT NULL DEFAULT 1,
  -- JSON of an answer: { sql, connection_id, dialect, tables: [{ df_key, sql, connection_id, ... }], charts }.
  answer TEXT,
  credits REAL,
  copied_from_chat_id TEXT,
  knowledge_commit TEXT,
  -- JSON array of the knowledge items the answer used.
  knowledge_items TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (chat_pk, message_uuid)
);
CREATE INDEX chat_messages_chat ON chat_messages(chat_pk, position);
CREATE INDEX chat_messages_created ON chat_messages(created_at);

-- Full-text index of displayed message bodies, kept by the triggers below. `scope` holds one token
-- naming the owner (hex of organization and user), so a search is filtered inside FTS5. The FTS rowid
-- is the NEGATED message id: FTS5 reads doclists cheaply in ascending order only (descending loads
-- whole doclists), so ascending rowid = newest first lets a search stop after the newest matches.
CREATE VIRTUAL TABLE chat_messages_fts USING fts5(body, scope, tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER chat_messages_fts_insert AFTER INSERT ON chat_messages WHEN new.displayed = 1 BEGIN
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -new.id, new.content, 's' || hex(c.org_id || '/' || c.user_id) FROM chats c WHERE c.id = new.chat_pk;
END;
CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content, displayed ON chat_messages BEGIN
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
  INSERT INTO chat_messages_fts (rowid, body, scope)
    SELECT -new.id, new.content, 's' || hex(c.org_id || '/' || c.user_id) FROM chats c WHERE c.id = new.chat_pk AND new.displayed = 1;
END;
CREATE TRIGGER chat_messages_fts_delete AFTER DELETE ON chat_messages BEGIN
  DELETE FROM chat_messages_fts WHERE rowid = -old.id;
END;

CREATE TABLE chat_labels (
  chat_pk INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (chat_pk, label)
);

CREATE TABLE chat_feedback (
  id TEXT PRIMARY KEY,
  chat_pk INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  message_uuid TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rating TEXT CHECK (rating IN ('positive', 'negative')),
  comment TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX chat_feedback_chat ON chat_feedback(chat_pk);

-- Public shares. `share_id` is the chat_id of the public URL /api/share/{chat_id}: the chat's own
-- chat_id for share_chat, a fresh id for share_message (which shows one message and its question).
CREATE TABLE chat_shares (
  share_id TEXT PRIMARY KEY,
  chat_pk INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  message_uuid TEXT,
  created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
CREATE INDEX chat_shares_chat ON chat_shares(chat_pk);
