-- PostgreSQL twin of ../0096_run_owners.sql. `agent_event_ids` starts empty here: the first
-- reservation starts it after the highest event id (and copy-store brings SQLite's row along).
ALTER TABLE agent_runs ADD COLUMN replica_id TEXT;
ALTER TABLE agent_runs ADD COLUMN heartbeat_at BIGINT NOT NULL DEFAULT 0;
UPDATE agent_runs SET heartbeat_at = COALESCE(finished_at, created_at);
CREATE INDEX agent_runs_heartbeat ON agent_runs(heartbeat_at) WHERE status = 'running';
CREATE INDEX agent_runs_replica ON agent_runs(replica_id) WHERE status = 'running';
UPDATE agent_runs SET status = 'failed', answer = COALESCE(answer, 'Interrupted by a restart'), finished_at = created_at
  WHERE status = 'running' AND EXISTS (
    SELECT 1 FROM agent_runs later WHERE later.org_id = agent_runs.org_id AND later.chat_id = agent_runs.chat_id AND later.status = 'running'
      AND (later.created_at > agent_runs.created_at OR (later.created_at = agent_runs.created_at AND later.id > agent_runs.id)));
CREATE UNIQUE INDEX agent_runs_one_running ON agent_runs(org_id, chat_id) WHERE status = 'running';

CREATE TABLE agent_event_ids (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  reserved_through BIGINT NOT NULL
);
