-- Accounts and sign-in: MFA state on users, single-use account tokens, recovery codes, mail outbox,
-- audit log, profile memories, dismissed disclaimers, brute-force counters and per-org SSO.

-- TOTP secrets are sealed with the secret box; totp_last_step is the last accepted time step, so a
-- code is accepted at most once (conditional UPDATE on it).
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
ALTER TABLE users ADD COLUMN totp_enabled_at INTEGER;
ALTER TABLE users ADD COLUMN totp_last_step INTEGER;

CREATE TABLE mfa_recovery_codes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes(user_id, used_at);

-- Email verification, password reset, magic links (token and fallback code) and MFA recovery.
-- Only a SHA-256 of the value is stored; consumption is one conditional UPDATE on used_at.
CREATE TABLE account_tokens (
  id TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'magic_link', 'magic_code', 'mfa_recovery')),
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- Tokens issued together (a magic link and its fallback code) share a group and die together.
  group_id TEXT,
  data TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX account_tokens_user ON account_tokens(user_id, purpose);
CREATE INDEX account_tokens_group ON account_tokens(group_id);
CREATE INDEX account_tokens_expiry ON account_tokens(expires_at);

-- Mail kept when no SMTP server is configured.
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  org_id TEXT,
  user_id TEXT,
  actor_id TEXT,
  action TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_user ON audit_log(user_id, created_at);
CREATE INDEX audit_log_org ON audit_log(org_id, created_at);

CREATE TABLE user_memories (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  -- 1 when the user wrote the title (it then wins over regeneration from the content).
  title_from_user INTEGER NOT NULL DEFAULT 0,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX user_memories_user ON user_memories(user_id, created_at);

CREATE TABLE dismissed_disclaimers (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  disclaimer_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, disclaimer_hash)
);

-- Failed-attempt counters per key ('account:<id>', 'ip:<address>'), fixed windows.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  failures INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits(window_start);

-- Which organization serves an email domain (org_from_email, SSO discovery).
CREATE TABLE org_email_domains (
  domain TEXT PRIMARY KEY COLLATE NOCASE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE
);
CREATE INDEX org_email_domains_org ON org_email_domains(org_id);

-- Per-organization SSO (OpenID Connect); client_secret is sealed with the secret box.
CREATE TABLE sso_configs (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  client_secret TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, type)
);

-- One row per started SSO login: state, PKCE verifier and nonce, used once.
CREATE TABLE sso_logins (
  state_hash TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  type TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  next_path TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX sso_logins_expiry ON sso_logins(expires_at);

-- Links an SSO subject to a user.
CREATE TABLE sso_identities (
  org_id TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX sso_identities_user ON sso_identities(user_id);
