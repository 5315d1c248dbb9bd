-- PostgreSQL twin of ../0012_mail_queue.sql.
ALTER TABLE outbox ADD COLUMN next_attempt_at BIGINT;
ALTER TABLE outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN sent_at BIGINT;
ALTER TABLE outbox ADD COLUMN failed_at BIGINT;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
