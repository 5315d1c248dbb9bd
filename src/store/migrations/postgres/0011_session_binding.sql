-- PostgreSQL twin of ../0011_session_binding.sql.
ALTER TABLE sessions ADD COLUMN org_id TEXT;
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'session' CHECK (kind IN ('session', 'embedded'));
ALTER TABLE sessions ADD COLUMN parent_session_id TEXT;
ALTER TABLE sessions ADD COLUMN parent_token_id TEXT;
