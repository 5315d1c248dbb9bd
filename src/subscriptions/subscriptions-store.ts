// SQL of the subscriptions table and of the addresses that unsubscribed.
import { sql } from 'kysely';
import type { Executor, Query } from '../store/index.ts';
import type { SecretBox } from '../security/index.ts';
import { openChannels, sealChannels } from './sealed-channels.ts';
import type { Alert, Channel, Subscription, SubscriptionStatus } from './schemas.ts';

export interface SubscriptionRow {
  id: string;
  org_id: string;
  owner_id: string;
  saved_question_id: string | null;
  dashboard_id: string | null;
  cron: string;
  timezone: string;
  channels: string;
  alert: string | null;
  alert_crossed: number;
  status: SubscriptionStatus;
  stopped_reason: string | null;
  next_slot_at: number;
  created_at: number;
  updated_at: number;
}

/** What a subscription is written with. */
export interface SubscriptionFields {
  saved_question_id: string | null;
  dashboard_id: string | null;
  cron: string;
  timezone: string;
  channels: Channel[];
  alert: Alert | null;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** The API's view of a row. */
export function toSubscription(box: SecretBox, r: SubscriptionRow, unsubscribed: string[]): Subscription {
  return {
    id: r.id,
    owner_id: r.owner_id,
    saved_question_id: r.saved_question_id,
    dashboard_id: r.dashboard_id,
    schedule: { cron: r.cron, timezone: r.timezone },
    channels: openChannels(box, r.channels),
    alert: r.alert === null ? null : (JSON.parse(r.alert) as Alert),
    status: r.status,
    stopped_reason: r.stopped_reason,
    next_run_at: r.status === 'active' ? iso(r.next_slot_at) : null,
    unsubscribed,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export async function insertSubscription(x: Executor, box: SecretBox, s: { id: string; orgId: string; ownerId: string; fields: SubscriptionFields; nextSlotAt: number; at: number }): Promise<void> {
  const f = s.fields;
  await x.run(sql`INSERT INTO subscriptions (id, org_id, owner_id, saved_question_id, dashboard_id, cron, timezone, channels, alert, alert_crossed, status, next_slot_at, created_at, updated_at)
    VALUES (${s.id}, ${s.orgId}, ${s.ownerId}, ${f.saved_question_id}, ${f.dashboard_id}, ${f.cron}, ${f.timezone}, ${sealChannels(box, f.channels)}, ${f.alert ? JSON.stringify(f.alert) : null},
      0, 'active', ${s.nextSlotAt}, ${s.at}, ${s.at})`);
}

export async function findSubscription(x: Executor, orgId: string, id: string): Promise<SubscriptionRow | undefined> {
  return x.one(sql<SubscriptionRow>`SELECT * FROM subscriptions WHERE org_id = ${orgId} AND id = ${id}`);
}

/** A subscription by id alone (the scheduler and unsubscribe links, which carry no organization). */
export async function subscriptionById(x: Executor, id: string): Promise<SubscriptionRow | undefined> {
  return x.one(sql<SubscriptionRow>`SELECT * FROM subscriptions WHERE id = ${id}`);
}

/** The organization's subscriptions, or one owner's; newest first. */
export async function listSubscriptions(x: Executor, orgId: string, ownerId: string | undefined): Promise<SubscriptionRow[]> {
  const owner = ownerId === undefined ? sql`` : sql`AND owner_id = ${ownerId}`;
  return x.all(sql<SubscriptionRow>`SELECT * FROM subscriptions WHERE org_id = ${orgId} ${owner} ORDER BY created_at DESC, id DESC`);
}

/** Rewrites what a subscription sends and when; a new schedule starts from its next slot, the alert from clear. */
export async function updateSubscription(x: Executor, box: SecretBox, u: { id: string; fields: SubscriptionFields; nextSlotAt: number; resetAlert: boolean; at: number }): Promise<void> {
  const f = u.fields;
  await x.run(sql`UPDATE subscriptions SET saved_question_id = ${f.saved_question_id}, dashboard_id = ${f.dashboard_id}, cron = ${f.cron}, timezone = ${f.timezone},
    channels = ${sealChannels(box, f.channels)}, alert = ${f.alert ? JSON.stringify(f.alert) : null}, next_slot_at = ${u.nextSlotAt},
    alert_crossed = ${u.resetAlert ? 0 : sql`alert_crossed`}, updated_at = ${u.at} WHERE id = ${u.id}`);
}

/** Pauses, resumes or stops; a resumed subscription starts at its next slot (what passed while paused is not owed). */
export function setStatusQuery(id: string, s: { status: SubscriptionStatus; reason: string | null; nextSlotAt?: number | undefined; at: number }): Query {
  const next = s.nextSlotAt === undefined ? sql`next_slot_at` : sql`${s.nextSlotAt}`;
  return sql`UPDATE subscriptions SET status = ${s.status}, stopped_reason = ${s.reason}, next_slot_at = ${next}, updated_at = ${s.at} WHERE id = ${id}`;
}

export async function deleteSubscription(x: Executor, id: string): Promise<void> {
  await x.run(sql`DELETE FROM subscriptions WHERE id = ${id}`);
}

/** The addresses that unsubscribed from each subscription. */
export async function unsubscribedOf(x: Executor, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await x.all(sql<{ subscription_id: string; address: string }>`SELECT subscription_id, address FROM subscription_unsubscribes
    WHERE subscription_id IN (${sql.join(ids)}) ORDER BY address`);
  for (const r of rows) out.get(r.subscription_id)?.push(r.address);
  return out;
}

/** Records an unsubscribe; a second click changes nothing. */
export async function addUnsubscribe(x: Executor, id: string, address: string, at: number): Promise<void> {
  await x.run(sql`INSERT INTO subscription_unsubscribes (subscription_id, address, at) VALUES (${id}, ${address}, ${at}) ON CONFLICT DO NOTHING`);
}
