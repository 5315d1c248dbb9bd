-- PostgreSQL twin of ../0001_core.sql: same tables, columns, keys and indexes. Values keep SQLite's
-- formats so rows copy verbatim (times are integer milliseconds: BIGINT; flags 0/1: BIGINT).
-- users.email compares case-insensitively like SQLite's COLLATE NOCASE: citext (a trusted extension).
CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- Deferrable so copy-store can insert a workspace before its base organization.
  base_org_id TEXT REFERENCES organizations(id) ON DELETE CASCADE DEFERRABLE,
  mfa_enforced BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL
);
CREATE INDEX organizations_base ON organizations(base_org_id);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email citext NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  slack_title TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  identity_kind TEXT,
  email_verified_at BIGINT,
  disabled_at BIGINT,
  token_version BIGINT NOT NULL DEFAULT 0,
  default_workspace_id TEXT REFERENCES organizations(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE memberships (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'modeler', 'admin')),
  can_merge BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, org_id)
);
CREATE INDEX memberships_org ON memberships(org_id);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ended_at BIGINT
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('api', 'cli', 'mcp')),
  name TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  token_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  last_used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens(user_id, kind);
