-- Runs belong to the replica that started them. The owner refreshes `heartbeat_at` of its running
-- runs; a running run whose heartbeat is stale lost its replica, and any replica's sweep fails it.
-- Rows from before are stamped with their own times: a run still `running` is then stale at once.
ALTER TABLE agent_runs ADD COLUMN replica_id TEXT;
ALTER TABLE agent_runs ADD COLUMN heartbeat_at INTEGER NOT NULL DEFAULT 0;
UPDATE agent_runs SET heartbeat_at = COALESCE(finished_at, created_at);
-- The sweep's query (running runs by heartbeat) and the owner's heartbeat (its running runs).
CREATE INDEX agent_runs_heartbeat ON agent_runs(heartbeat_at) WHERE status = 'running';
CREATE INDEX agent_runs_replica ON agent_runs(replica_id) WHERE status = 'running';
-- One running run per chat across replicas (each process's own check sees only its own runs); should
-- a chat hold several from before, all but its latest are failed first.
UPDATE agent_runs SET status = 'failed', answer = COALESCE(answer, 'Interrupted by a restart'), finished_at = created_at
  WHERE status = 'running' AND EXISTS (
    SELECT 1 FROM agent_runs later WHERE later.org_id = agent_runs.org_id AND later.chat_id = agent_runs.chat_id AND later.status = 'running'
      AND (later.created_at > agent_runs.created_at OR (later.created_at = agent_runs.created_at AND later.id > agent_runs.id)));
CREATE UNIQUE INDEX agent_runs_one_running ON agent_runs(org_id, chat_id) WHERE status = 'running';

-- Event ids are handed out in blocks reserved here, so replicas sharing the store never give the same
-- id twice. It continues after every id used so far (deleted events' ids included).
CREATE TABLE agent_event_ids (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  reserved_through INTEGER NOT NULL
);
INSERT INTO agent_event_ids (id, reserved_through)
  SELECT 1, MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'agent_events'), 0), COALESCE((SELECT MAX(id) FROM agent_events), 0));
