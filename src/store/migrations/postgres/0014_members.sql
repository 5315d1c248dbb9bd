-- PostgreSQL twin of ../0014_members.sql.
ALTER TABLE memberships ADD COLUMN deactivated_at BIGINT;

CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email citext NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'modeler', 'admin')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  sent_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  accepted_user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  revoked_at BIGINT
);
CREATE INDEX invitations_org ON invitations(org_id, created_at);
CREATE INDEX invitations_email ON invitations(org_id, email);

CREATE TABLE org_settings (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  join_default_role TEXT NOT NULL DEFAULT 'user' CHECK (join_default_role IN ('user', 'modeler', 'admin')),
  session_lifetime_seconds BIGINT,
  updated_at BIGINT NOT NULL
);

ALTER TABLE rate_limits ADD COLUMN last_failure_at BIGINT;
