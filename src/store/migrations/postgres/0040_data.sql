-- PostgreSQL twin of ../0040_data.sql.
CREATE TABLE connections (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  settings TEXT NOT NULL,
  secret_sealed TEXT,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, id)
);

CREATE TABLE query_log (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  connection_id TEXT NOT NULL,
  environment_id TEXT,
  sql TEXT NOT NULL,
  tables TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('ok', 'refused', 'failed')),
  error_code TEXT,
  row_count BIGINT NOT NULL DEFAULT 0,
  duration_ms BIGINT NOT NULL DEFAULT 0,
  source TEXT NOT NULL DEFAULT 'api',
  created_at BIGINT NOT NULL
);
CREATE INDEX query_log_org_time ON query_log(org_id, created_at);
CREATE INDEX query_log_user ON query_log(org_id, user_id, created_at);

CREATE TABLE query_log_tables (
  query_id TEXT NOT NULL REFERENCES query_log(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  connection_id TEXT NOT NULL,
  table_name TEXT NOT NULL,
  PRIMARY KEY (query_id, table_name)
);
CREATE INDEX query_log_tables_usage ON query_log_tables(org_id, connection_id, table_name);

CREATE TABLE user_attributes (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id, name)
);

CREATE TABLE groups (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, name)
);

CREATE TABLE group_members (
  org_id TEXT NOT NULL,
  group_id TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (org_id, group_id, user_id),
  FOREIGN KEY (org_id, group_id) REFERENCES groups(org_id, id) ON DELETE CASCADE
);
CREATE INDEX group_members_user ON group_members(org_id, user_id);
