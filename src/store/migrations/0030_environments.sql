-- Environments of an organization's knowledge. Each one is a branch `env/<id>` of the organization's
-- bare repository under <dataDir>/knowledge/<org_id>.git; production is `main`.
CREATE TABLE environments (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- Names the mirrored branch `service/env-<slug>`; unique within the organization.
  slug TEXT NOT NULL,
  color TEXT NOT NULL,
  source_env_id TEXT,
  -- Created automatically for a quick-fix session; never mirrored; expires after 7 days idle.
  throwaway INTEGER NOT NULL DEFAULT 0,
  -- JSON: { [connection_id]: { schema?, database?, project?, dataset? } }.
  targets TEXT NOT NULL DEFAULT '{}',
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL
);
CREATE INDEX environments_org ON environments(org_id, created_at);
CREATE UNIQUE INDEX environments_org_slug ON environments(org_id, slug);
CREATE INDEX environments_throwaway_idle ON environments(throwaway, last_activity_at);

-- The remote an organization's knowledge is mirrored to, with its credential sealed by the secret box.
CREATE TABLE knowledge_mirrors (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  username TEXT NOT NULL DEFAULT '',
  secret_sealed TEXT,
  main_branch TEXT NOT NULL DEFAULT 'main',
  -- GitHub REST base URL for pull requests (GitHub Enterprise: https://<host>/api/v3).
  api_base_url TEXT,
  -- owner/name for pull requests; derived from the URL when NULL.
  repository TEXT,
  last_push_at INTEGER,
  last_push_error TEXT,
  updated_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  updated_at INTEGER NOT NULL
);
