-- Saved questions (src/saved): an answer's SQL, connection and chart kept under a title, run again
-- under the viewer's permissions. The question row is the current version; every edit also adds a
-- row to saved_question_versions, so its history stays readable.
CREATE TABLE saved_questions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- 'private' (the owner only) or 'organization' (every member).
  visibility TEXT NOT NULL,
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  sql TEXT NOT NULL,
  -- JSON: the Vega-Lite spec; NULL for a table only.
  chart TEXT,
  -- The knowledge commit the answer used (where it came from; runs govern at the current knowledge).
  knowledge_commit TEXT,
  -- JSON: the chat, message and table it was saved from; NULL when written by hand.
  source TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX saved_questions_org ON saved_questions(org_id, updated_at);

CREATE TABLE saved_question_versions (
  question_id TEXT NOT NULL REFERENCES saved_questions(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  visibility TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  sql TEXT NOT NULL,
  chart TEXT,
  knowledge_commit TEXT,
  edited_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  edited_at INTEGER NOT NULL,
  PRIMARY KEY (question_id, version)
);
