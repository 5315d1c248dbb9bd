-- Organizations, workspaces, users, memberships, sessions and API tokens: what every request needs
-- to resolve its caller. Times are integer milliseconds since the epoch (from the injected Clock).

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  -- A workspace is an organization that belongs to a base organization.
  base_org_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  mfa_enforced INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX organizations_base ON organizations(base_org_id);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL DEFAULT '',
  slack_title TEXT NOT NULL DEFAULT '',
  -- Absent for SSO-only and passwordless users.
  password_hash TEXT,
  -- How the user signs in when there is no password: 'password', 'sso', 'magic_link' or NULL (unclassified).
  identity_kind TEXT,
  email_verified_at INTEGER,
  disabled_at INTEGER,
  -- Incremented to invalidate every live session of the user.
  token_version INTEGER NOT NULL DEFAULT 0,
  default_workspace_id TEXT REFERENCES organizations(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE memberships (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'modeler', 'admin')),
  -- The modeler permission "Can merge changes to production".
  can_merge INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, org_id)
);
CREATE INDEX memberships_org ON memberships(org_id);

-- One row per signed-in session; the session JWT carries its id, so logout can end it.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

-- General API, CLI and MCP tokens. Only a SHA-256 of the value is kept (the value has 256 bits of
-- entropy, so a slow hash adds nothing); `prefix` lets a person recognize a token in a list.
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
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens(user_id, kind);
