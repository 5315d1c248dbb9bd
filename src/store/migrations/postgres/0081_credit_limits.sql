-- PostgreSQL twin of ../0081_credit_limits.sql.
CREATE TABLE credit_limits (
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL DEFAULT '',
  monthly_credits DOUBLE PRECISION NOT NULL CHECK (monthly_credits >= 0),
  updated_by TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX agent_usage_org_user ON agent_usage(org_id, user_id, created_at);
CREATE INDEX agent_runs_org_time ON agent_runs(org_id, created_at);
