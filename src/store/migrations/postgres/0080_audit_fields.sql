-- PostgreSQL twin of ../0080_audit_fields.sql.
ALTER TABLE audit_log ADD COLUMN target_type TEXT;
ALTER TABLE audit_log ADD COLUMN target_id TEXT;
ALTER TABLE audit_log ADD COLUMN ip TEXT;
ALTER TABLE audit_log ADD COLUMN outcome TEXT NOT NULL DEFAULT 'success';
CREATE INDEX audit_log_org_actor ON audit_log(org_id, actor_id, created_at);
CREATE INDEX audit_log_org_action ON audit_log(org_id, action, created_at);
CREATE INDEX audit_log_org_target ON audit_log(org_id, target_id, created_at);
