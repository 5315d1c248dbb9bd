-- The agent: one run per chat message, its event log (ids increase across the whole log, so a
-- client resumes with Last-Event-ID), feedback sent while it runs, and usage with its credits.

CREATE TABLE agent_runs (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  -- The user's message and the assistant's answer in the chat.
  message_uuid TEXT NOT NULL,
  answer_uuid TEXT NOT NULL,
  environment_id TEXT,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  question TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'failed')),
  answer TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX agent_runs_chat ON agent_runs(org_id, chat_id, created_at);
CREATE INDEX agent_runs_running ON agent_runs(status) WHERE status = 'running';

CREATE TABLE agent_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL REFERENCES agent_runs(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX agent_events_run ON agent_events(run_id, id);

CREATE TABLE agent_feedback (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES agent_runs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  applied_at INTEGER
);
CREATE INDEX agent_feedback_run ON agent_feedback(run_id);

-- What each run cost: model tokens, warehouse queries and the credits they came to.
CREATE TABLE agent_usage (
  run_id TEXT PRIMARY KEY REFERENCES agent_runs(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  queries INTEGER NOT NULL,
  credits REAL NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX agent_usage_org ON agent_usage(org_id, created_at);
CREATE INDEX agent_usage_user ON agent_usage(user_id, created_at);
