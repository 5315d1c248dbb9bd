-- Imports of dbt artifacts into an environment (src/imports): the summary each one answered with,
-- kept with the environment (and gone with it).
CREATE TABLE dbt_imports (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  connection_id TEXT NOT NULL,
  project TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  -- The commit written; NULL when the import changed nothing.
  commit_id TEXT,
  -- JSON: the summary (counts per kind, skipped nodes, conflicts).
  summary TEXT NOT NULL,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX dbt_imports_environment ON dbt_imports(org_id, environment_id, created_at);
