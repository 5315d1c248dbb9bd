-- Running an organization (issue 23): member status, invitations, organization settings and the
-- per-client sign-in throttle.

-- A deactivated membership refuses every credential of the member in that organization on the next
-- request (the credential cache's trigger on memberships sees the change); their chats and knowledge
-- commits stay. Deactivating in a base organization also disables the account (users.disabled_at).
ALTER TABLE memberships ADD COLUMN deactivated_at INTEGER;

-- Invitations by email. Only a SHA-256 of the link's token is kept; resending replaces the hash, so
-- the older link dies. Accepting is one conditional UPDATE on accepted_at (exactly one winner).
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE,
  role TEXT NOT NULL CHECK (role IN ('user', 'modeler', 'admin')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  sent_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  accepted_at INTEGER,
  accepted_user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  revoked_at INTEGER
);
CREATE INDEX invitations_org ON invitations(org_id, created_at);
CREATE INDEX invitations_email ON invitations(org_id, email);

-- Settings an admin changes (MFA stays on organizations.mfa_enforced; join domains on
-- org_email_domains). A missing row means the defaults.
CREATE TABLE org_settings (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  -- Role of people who join through an allowed email domain.
  join_default_role TEXT NOT NULL DEFAULT 'user' CHECK (join_default_role IN ('user', 'modeler', 'admin')),
  -- Lifetime of new sessions; NULL: the service default.
  session_lifetime_seconds INTEGER,
  updated_at INTEGER NOT NULL
);

-- The throttle slows one (account, client address) pair down progressively; it needs the time of
-- the last failure to know how long the pair must wait.
ALTER TABLE rate_limits ADD COLUMN last_failure_at INTEGER;
