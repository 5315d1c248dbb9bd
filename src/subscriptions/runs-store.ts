// SQL of the run log (subscription_runs) and of webhook deliveries. A slot is claimed by advancing
// the subscription's next_slot_at from the value read (a conditional UPDATE the batch requires) and
// inserting its run row, unique per (subscription, slot): of two replicas reading the same due
// subscription, the second changes nothing and inserts nothing.
import { sql } from 'kysely';
import { monotonicFactory } from 'ulid';
import type { Executor, Query } from '../store/index.ts';
import type { SubscriptionRun, RunStatus } from './schemas.ts';

/** Run and delivery ids sort in the order they were made (the log reads newest first on both dialects). */
export const logId = monotonicFactory();

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A subscription whose next slot has come. */
export interface DueSubscription {
  id: string;
  next_slot_at: number;
  cron: string;
  timezone: string;
}

/** Subscriptions whose next slot has come. */
export async function dueSubscriptions(x: Executor, now: number, limit: number): Promise<DueSubscription[]> {
  const rows = await x.all(sql<DueSubscription>`SELECT id, next_slot_at, cron, timezone FROM subscriptions
    WHERE status = 'active' AND next_slot_at <= ${now} ORDER BY next_slot_at, id LIMIT ${limit}`);
  return rows.map((r) => ({ ...r, next_slot_at: Number(r.next_slot_at) }));
}

/**
 * Claims the slots of a subscription from `from` (the next_slot_at read): `slot`, the latest, runs (its
 * row 'running', claimed by `replica`), earlier ones passed unclaimed and are logged as missed with
 * their reason; the subscription moves on to `next`. False when another replica claimed them first.
 */
export async function claimSlots(x: Executor, c: { id: string; from: number; next: number; run: string; slot: number | undefined; missed: { slot: number; reason: string }[]; replica: string; now: number; claimMs: number }): Promise<boolean> {
  const res = await x.batch(
    [
      sql`UPDATE subscriptions SET next_slot_at = ${c.next} WHERE id = ${c.id} AND status = 'active' AND next_slot_at = ${c.from}`,
      ...c.missed.map((m) => sql`INSERT INTO subscription_runs (id, subscription_id, slot_at, status, started_at, finished_at, error)
        VALUES (${logId(c.now)}, ${c.id}, ${m.slot}, 'missed', ${c.now}, ${c.now}, ${m.reason}) ON CONFLICT DO NOTHING`),
      ...(c.slot === undefined
        ? []
        : [sql`INSERT INTO subscription_runs (id, subscription_id, slot_at, status, claimed_by, claimed_until, started_at)
        VALUES (${c.run}, ${c.id}, ${c.slot}, 'running', ${c.replica}, ${c.now + c.claimMs}, ${c.now})`]),
    ],
    { require: [0] },
  );
  return res.ok;
}

/** A run started by hand (send now), claimed by this replica. */
export function insertTestRunQuery(r: { run: string; subscriptionId: string; replica: string; now: number; claimMs: number }): Query {
  return sql`INSERT INTO subscription_runs (id, subscription_id, slot_at, status, claimed_by, claimed_until, started_at)
    VALUES (${r.run}, ${r.subscriptionId}, NULL, 'running', ${r.replica}, ${r.now + r.claimMs}, ${r.now})`;
}

/** Running rows whose replica stopped before finishing (its claim passed): taken over one by one. */
export async function takeOverStale(x: Executor, replica: string, now: number, claimMs: number): Promise<{ id: string; subscription_id: string; slot_at: number | null } | undefined> {
  const row = await x.one(sql<{ id: string; subscription_id: string; slot_at: number | null }>`UPDATE subscription_runs SET claimed_by = ${replica}, claimed_until = ${now + claimMs}
    WHERE id = (SELECT id FROM subscription_runs WHERE status = 'running' AND claimed_until < ${now} ORDER BY claimed_until, id LIMIT 1)
      AND status = 'running' AND claimed_until < ${now}
    RETURNING id, subscription_id, slot_at`);
  return row && { ...row, slot_at: row.slot_at === null ? null : Number(row.slot_at) };
}

/** Ends a run this replica still holds; the batch's first statement, which it requires. */
export function finishRunQuery(r: { run: string; replica: string; status: RunStatus; now: number; recipients?: unknown; error?: string | null }): Query {
  return sql`UPDATE subscription_runs SET status = ${r.status}, finished_at = ${r.now}, recipients = ${r.recipients === undefined ? null : JSON.stringify(r.recipients)},
    error = ${r.error ?? null}, claimed_until = NULL WHERE id = ${r.run} AND status = 'running' AND claimed_by = ${r.replica}`;
}

/** A mail of a run, by its outbox id. */
export const emailDeliveryQuery = (run: string, target: string, outboxId: string, now: number): Query =>
  sql`INSERT INTO subscription_deliveries (id, run_id, channel, target, outbox_id) VALUES (${logId(now)}, ${run}, 'email', ${target}, ${outboxId})`;

/** A webhook of a run, due at once (its URL sealed, as on the subscription). */
export const webhookDeliveryQuery = (run: string, to: { host: string; sealedUrl: string }, payload: string, now: number): Query =>
  sql`INSERT INTO subscription_deliveries (id, run_id, channel, target, url, payload, next_attempt_at) VALUES (${logId(now)}, ${run}, 'webhook', ${to.host}, ${to.sealedUrl}, ${payload}, ${now})`;

interface RunRow {
  id: string;
  slot_at: number | null;
  status: RunStatus;
  started_at: number;
  finished_at: number | null;
  error: string | null;
}

export interface DeliveryRow {
  run_id: string;
  channel: 'email' | 'webhook';
  target: string;
  outbox_id: string | null;
  attempts: number;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
}

/** The run log of a subscription, newest first, each run with its deliveries' rows. */
export async function runRows(x: Executor, subscriptionId: string, limit: number): Promise<{ runs: RunRow[]; deliveries: DeliveryRow[] }> {
  const runs = await x.all(sql<RunRow>`SELECT id, slot_at, status, started_at, finished_at, error FROM subscription_runs WHERE subscription_id = ${subscriptionId}
    ORDER BY started_at DESC, id DESC LIMIT ${limit}`);
  if (runs.length === 0) return { runs, deliveries: [] };
  const deliveries = await x.all(sql<DeliveryRow>`SELECT run_id, channel, target, outbox_id, attempts, sent_at, failed_at, last_error FROM subscription_deliveries
    WHERE run_id IN (${sql.join(runs.map((r) => r.id))}) ORDER BY id`);
  return { runs, deliveries };
}

/** A run row as the API shows it. */
export function toRun(r: RunRow, deliveries: SubscriptionRun['deliveries']): SubscriptionRun {
  const started = Number(r.started_at);
  const finished = r.finished_at === null ? null : Number(r.finished_at);
  return {
    id: r.id,
    slot_at: iso(r.slot_at),
    status: r.status,
    started_at: iso(started)!,
    finished_at: iso(finished),
    duration_ms: finished === null || r.status === 'missed' ? null : finished - started,
    error: r.error,
    deliveries,
  };
}
