-- Evaluation runs and their results, one row per question (src/evaluations owns this SQL). Runs are
-- shared by production and every environment (interface part 2); the definitions themselves live in
-- the knowledge repository. Times are integer milliseconds since the epoch.

CREATE TABLE evaluation_runs (
  -- Keyset of the run list (only grows).
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  evaluation_id TEXT NOT NULL,
  evaluation_name TEXT NOT NULL,
  -- Where the definition was read (an environment id; NULL = production) and at which commit.
  source_env_id TEXT,
  evaluation_commit TEXT NOT NULL,
  -- SHA-256 of the question snapshot: the merge gate reuses a finished run with the same questions
  -- at the same target commit instead of asking again.
  definition_hash TEXT NOT NULL,
  target_kind TEXT NOT NULL CHECK (target_kind IN ('production', 'environment')),
  target_env_id TEXT,
  -- '' for production, the environment id otherwise: at most one running run per evaluation and target.
  target_key TEXT NOT NULL,
  -- The knowledge commit every question of the run reads (NULL when the target has no knowledge yet).
  target_commit TEXT,
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
  trigger TEXT NOT NULL CHECK (trigger IN ('api', 'cli', 'manual', 'merge_gate')),
  metadata TEXT NOT NULL DEFAULT '{}',
  idempotency_key TEXT,
  -- Questions are asked as this user (their permissions and row-level security), also after a restart.
  user_id TEXT NOT NULL,
  -- JSON: the questions as the run asks and scores them, and what a migrated definition could not carry.
  questions TEXT NOT NULL,
  warnings TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  regraded_at INTEGER,
  regrade_commit TEXT
);
CREATE UNIQUE INDEX evaluation_runs_active ON evaluation_runs(org_id, evaluation_id, target_key) WHERE status = 'running';
CREATE UNIQUE INDEX evaluation_runs_idempotency ON evaluation_runs(org_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX evaluation_runs_list ON evaluation_runs(org_id, evaluation_id, seq);
CREATE INDEX evaluation_runs_reuse ON evaluation_runs(org_id, evaluation_id, target_key, target_commit, definition_hash) WHERE status = 'completed';

CREATE TABLE evaluation_results (
  run_id TEXT NOT NULL REFERENCES evaluation_runs(id) ON DELETE CASCADE,
  question_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('pending', 'pass', 'fail', 'error')),
  -- JSON {kind, value} of the value scored, and where it came from ('table' or 'text').
  observed TEXT,
  observed_source TEXT,
  relative_diff REAL,
  -- Why a question ended in error: no_answer, ambiguous, refused, timeout, agent_failed, cancelled, access_lost.
  error TEXT,
  -- JSON: each reply (text and the single value of its last query's result table), kept so that a
  -- regrade scores again without asking again.
  replies TEXT NOT NULL DEFAULT '[]',
  sql TEXT NOT NULL DEFAULT '[]',
  chat_id TEXT,
  followed_up INTEGER NOT NULL DEFAULT 0,
  -- Times the question was started; more than 1 after a restart interrupted it.
  attempts INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER,
  finished_at INTEGER,
  PRIMARY KEY (run_id, question_id)
);
CREATE INDEX evaluation_results_pending ON evaluation_results(run_id) WHERE result = 'pending';

-- The organization's merge gate: off, report (merges carry the comparison) or required.
CREATE TABLE evaluation_settings (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  gate TEXT NOT NULL CHECK (gate IN ('off', 'report', 'required')),
  updated_by TEXT,
  updated_at INTEGER NOT NULL
);
