-- PostgreSQL twin of ../0010_accounts.sql.
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
ALTER TABLE users ADD COLUMN totp_enabled_at BIGINT;
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;

CREATE TABLE mfa_recovery_codes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes(user_id, used_at);

CREATE TABLE account_tokens (
  id TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'magic_link', 'magic_code', 'mfa_recovery')),
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  group_id TEXT,
  data TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX account_tokens_user ON account_tokens(user_id, purpose);
CREATE INDEX account_tokens_group ON account_tokens(group_id);
CREATE INDEX account_tokens_expiry ON account_tokens(expires_at);

CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  org_id TEXT,
  user_id TEXT,
  actor_id TEXT,
  action TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_user ON audit_log(user_id, created_at);
CREATE INDEX audit_log_org ON audit_log(org_id, created_at);

CREATE TABLE user_memories (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  title_from_user BIGINT NOT NULL DEFAULT 0,
  content TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX user_memories_user ON user_memories(user_id, created_at);

CREATE TABLE dismissed_disclaimers (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  disclaimer_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, disclaimer_hash)
);

CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  failures BIGINT NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits(window_start);

-- COLLATE NOCASE in SQLite: citext here.
CREATE TABLE org_email_domains (
  domain citext PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE
);
CREATE INDEX org_email_domains_org ON org_email_domains(org_id);

CREATE TABLE sso_configs (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  client_secret TEXT,
  enabled BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, type)
);

CREATE TABLE sso_logins (
  state_hash TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  type TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  next_path TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX sso_logins_expiry ON sso_logins(expires_at);

CREATE TABLE sso_identities (
  org_id TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX sso_identities_user ON sso_identities(user_id);
