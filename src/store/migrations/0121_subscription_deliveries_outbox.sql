-- Issue 37: a mail the outbox gives up on finds its subscription delivery by outbox id (the owner's
-- notice, src/subscriptions/mail-give-up.ts); without an index that lookup read every delivery kept.
-- Webhook deliveries have no outbox id: the index holds the mail ones only.
CREATE INDEX subscription_deliveries_outbox ON subscription_deliveries(outbox_id) WHERE outbox_id IS NOT NULL;
