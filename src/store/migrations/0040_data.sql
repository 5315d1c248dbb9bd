-- The data plane: warehouse connections (credentials sealed with the secret box), the query log
-- (audit and usage), and the user attributes and groups that row-level security reads.

CREATE TABLE connections (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  -- Non-secret settings as JSON (host, port, database, user, path, schema...).
  settings TEXT NOT NULL,
  -- Password and other secrets, sealed JSON; never returned by the API.
  secret_sealed TEXT,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, id)
);

CREATE TABLE query_log (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  connection_id TEXT NOT NULL,
  environment_id TEXT,
  sql TEXT NOT NULL,
  -- JSON array of `schema.table` names the statement read.
  tables TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('ok', 'refused', 'failed')),
  error_code TEXT,
  row_count INTEGER NOT NULL DEFAULT 0,
  duration_ms INTEGER NOT NULL DEFAULT 0,
  source TEXT NOT NULL DEFAULT 'api',
  created_at INTEGER NOT NULL
);
CREATE INDEX query_log_org_time ON query_log(org_id, created_at);
CREATE INDEX query_log_user ON query_log(org_id, user_id, created_at);

-- One row per table read by a logged query, so usage ranking is an indexed GROUP BY.
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
