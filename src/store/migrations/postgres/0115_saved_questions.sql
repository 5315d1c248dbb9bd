-- PostgreSQL twin of ../0115_saved_questions.sql.
CREATE TABLE saved_questions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  visibility TEXT NOT NULL,
  version INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  sql TEXT NOT NULL,
  chart TEXT,
  knowledge_commit TEXT,
  source TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
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
  edited_at BIGINT NOT NULL,
  PRIMARY KEY (question_id, version)
);
