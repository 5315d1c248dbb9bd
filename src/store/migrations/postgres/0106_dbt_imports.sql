-- PostgreSQL twin of ../0106_dbt_imports.sql.
CREATE TABLE dbt_imports (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  connection_id TEXT NOT NULL,
  project TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  commit_id TEXT,
  summary TEXT NOT NULL,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX dbt_imports_environment ON dbt_imports(org_id, environment_id, created_at);
