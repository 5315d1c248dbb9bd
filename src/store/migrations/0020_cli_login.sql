-- Command-line device sign-in (interface part 3 "CLI device login"). A row lives from `start` until
-- the CLI claims its token (then it is deleted) or it expires and is purged.
-- Two secrets per row, both stored only as SHA-256: the poll code, which only the CLI holds, and the
-- browser code carried by the authorize URL, so a leaked URL (history, screen share) cannot claim
-- the token. The user_code is a comparison string, not a credential; it is still sealed at rest.
CREATE TABLE cli_logins (
  id TEXT PRIMARY KEY,
  poll_code_hash TEXT NOT NULL UNIQUE,
  browser_code_hash TEXT NOT NULL UNIQUE,
  user_code_sealed TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
  -- Set when a signed-in user decides; never shown to the CLI before it claims the token.
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  token_id TEXT REFERENCES api_tokens(id) ON DELETE CASCADE,
  -- The minted CLI token value, sealed with the secret box until the CLI claims it once.
  token_sealed TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  decided_at INTEGER
);
CREATE INDEX cli_logins_expires ON cli_logins(expires_at);

-- Listing a user's tokens of a kind within an organization (settings pages, admin views).
CREATE INDEX api_tokens_org_user ON api_tokens(org_id, user_id, kind);
