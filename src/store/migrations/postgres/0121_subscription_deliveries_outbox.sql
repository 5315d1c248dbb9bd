-- PostgreSQL twin of ../0121_subscription_deliveries_outbox.sql.
CREATE INDEX subscription_deliveries_outbox ON subscription_deliveries(outbox_id) WHERE outbox_id IS NOT NULL;
