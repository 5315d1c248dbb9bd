-- PostgreSQL twin of ../0117_subscriptions.sql.
CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- No foreign keys: a run finds the question or dashboard through a port, as its owner; one deleted
  -- or no longer readable stops the subscription with a notice instead of deleting it unsaid.
  saved_question_id TEXT,
  dashboard_id TEXT,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  -- JSON: [{type: 'email', to: [...]} | {type: 'webhook', url, format}].
  channels TEXT NOT NULL,
  -- JSON {column, op, threshold}; NULL: a plain report.
  alert TEXT,
  -- 1 while the alert's condition held at the last run (sent once per crossing).
  alert_crossed INTEGER NOT NULL DEFAULT 0,
  -- 'active', 'paused' (by its owner or an admin) or 'stopped' (the owner lost access).
  status TEXT NOT NULL,
  stopped_reason TEXT,
  -- The next schedule slot (ms); advanced by the replica that claims the slot.
  next_slot_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX subscriptions_org ON subscriptions(org_id, created_at);
CREATE INDEX subscriptions_due ON subscriptions(next_slot_at) WHERE status = 'active';

CREATE TABLE subscription_runs (
  id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
  -- The schedule slot (ms); NULL for a test sent by hand.
  slot_at BIGINT,
  -- 'running', 'sent', 'not_crossed' (an alert whose condition did not newly hold), 'failed',
  -- 'missed' (a slot that passed while no replica ran) or 'stopped' (the owner lost access).
  status TEXT NOT NULL,
  -- The replica working on it and until when; another takes over a running row past that time.
  claimed_by TEXT,
  claimed_until BIGINT,
  started_at BIGINT NOT NULL,
  finished_at BIGINT,
  -- JSON: who it was sent to ([{channel, target}]).
  recipients TEXT,
  error TEXT,
  UNIQUE (subscription_id, slot_at)
);
CREATE INDEX subscription_runs_of ON subscription_runs(subscription_id, started_at);
CREATE INDEX subscription_runs_running ON subscription_runs(claimed_until) WHERE status = 'running';

-- One row per channel target of a sent run: a mail (its outbox id) or a webhook (its body until sent).
CREATE TABLE subscription_deliveries (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES subscription_runs(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  target TEXT NOT NULL,
  outbox_id TEXT,
  -- Webhooks: the URL and body until delivered; the queue claims rows by next_attempt_at.
  url TEXT,
  payload TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  sent_at BIGINT,
  failed_at BIGINT,
  last_error TEXT
);
CREATE INDEX subscription_deliveries_run ON subscription_deliveries(run_id);
CREATE INDEX subscription_deliveries_due ON subscription_deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- Addresses that followed an unsubscribe link: skipped by the subscription from then on.
CREATE TABLE subscription_unsubscribes (
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
  address TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (subscription_id, address)
);

-- Mail with an HTML body, attachments (JSON: [{filename, content_type, content (base64), cid?}]) and
-- extra headers (JSON: List-Unsubscribe). Cleared with the text body once delivered.
ALTER TABLE outbox ADD COLUMN html_body TEXT;
ALTER TABLE outbox ADD COLUMN attachments TEXT;
ALTER TABLE outbox ADD COLUMN headers TEXT;

-- Whether subscriptions may mail addresses that are not members of the organization (default no).
ALTER TABLE org_settings ADD COLUMN external_recipients INTEGER NOT NULL DEFAULT 0;
