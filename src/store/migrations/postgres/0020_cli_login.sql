-- PostgreSQL twin of ../0020_cli_login.sql.
CREATE TABLE cli_logins (
  id TEXT PRIMARY KEY,
  poll_code_hash TEXT NOT NULL UNIQUE,
  browser_code_hash TEXT NOT NULL UNIQUE,
  user_code_sealed TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  token_id TEXT REFERENCES api_tokens(id) ON DELETE CASCADE,
  token_sealed TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  decided_at BIGINT
);
CREATE INDEX cli_logins_expires ON cli_logins(expires_at);

CREATE INDEX api_tokens_org_user ON api_tokens(org_id, user_id, kind);
