-- The outbox becomes the durable queue of all outgoing mail: a message is written before the request
-- that caused it answers and delivered afterwards, retried with backoff while the server fails. A
-- delivered (or given up) message keeps no body, which holds links and codes. Without an SMTP server
-- messages stay for an operator to read, as before (next_attempt_at NULL, nothing to deliver).
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN sent_at INTEGER;
ALTER TABLE outbox ADD COLUMN failed_at INTEGER;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
