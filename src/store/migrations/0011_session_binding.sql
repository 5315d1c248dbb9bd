-- Sessions name the organization they act in and what they are: a signed-in session, or an embedded
-- session minted by a signed-in session or an API token. A JWT's sid must name a live session of the
-- same kind, user and organization; an embedded session also dies with the credential that minted it
-- (logout, password change, revoked or deleted token). Sessions started before this migration have no
-- organization and are checked against the user only.
ALTER TABLE sessions ADD COLUMN org_id TEXT;
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'session' CHECK (kind IN ('session', 'embedded'));
ALTER TABLE sessions ADD COLUMN parent_session_id TEXT;
ALTER TABLE sessions ADD COLUMN parent_token_id TEXT;
