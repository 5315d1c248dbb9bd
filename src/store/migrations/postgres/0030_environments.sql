-- PostgreSQL twin of ../0030_environments.sql.
CREATE TABLE environments (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  color TEXT NOT NULL,
  source_env_id TEXT,
  throwaway BIGINT NOT NULL DEFAULT 0,
  targets TEXT NOT NULL DEFAULT '{}',
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  last_activity_at BIGINT NOT NULL
);
CREATE INDEX environments_org ON environments(org_id, created_at);
CREATE UNIQUE INDEX environments_org_slug ON environments(org_id, slug);
CREATE INDEX environments_throwaway_idle ON environments(throwaway, last_activity_at);

CREATE TABLE knowledge_mirrors (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  username TEXT NOT NULL DEFAULT '',
  secret_sealed TEXT,
  main_branch TEXT NOT NULL DEFAULT 'main',
  api_base_url TEXT,
  repository TEXT,
  last_push_at BIGINT,
  last_push_error TEXT,
  updated_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  updated_at BIGINT NOT NULL
);
