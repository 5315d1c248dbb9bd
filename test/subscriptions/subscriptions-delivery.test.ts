// Subscriptions deliver: a scheduled run as the owner mails the HTML report (numbers escaped, the chart
// as an inline PNG, the rows as CSV, an unsubscribe link that works without signing in) over a real
// SMTP server on loopback, posts Slack, Teams and JSON webhooks to a loopback receiver (retried with
// backoff), runs each slot once across replicas, logs missed slots, alerts once per crossing, and stops
// with a notice when the owner lost access.
import test, { type ExecutionContext } from 'ava';
import { sql } from 'kysely';
import { MAX_ATTEMPTS } from '../../src/mail/index.ts';
import { deliverWebhooks, tick, type SubscriptionDeps } from '../../src/subscriptions/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { mimeHeaders, mimeParts } from '../helpers/mime.ts';
import { startTestSmtp, type CapturedMail, type TestSmtp } from '../helpers/smtp.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import type { UserRow } from '../../src/auth/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';

let t0: TestApp;
let smtp: TestSmtp;
let hooks: WebhookReceiver;
let deps: SubscriptionDeps;
const org = 'suborg';
let owner: UserRow, ownerToken: string, modelerToken: string, adminToken: string;
let member: UserRow;

const SPEC = { mark: 'bar', encoding: { x: { field: 'country', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } };
const SQL = 'SELECT country, count(*) AS n FROM orders GROUP BY country ORDER BY country';
const DAY = 24 * 3600_000;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  smtp = await startTestSmtp();
  hooks = await startWebhookReceiver();
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_SMTP_URL: smtp.url, SEXTANT_SUBSCRIPTION_TICK_MS: '0', SEXTANT_BASE_URL: 'http://127.0.0.1:9' }, { tableDocs: docs });
  t0.org(org);
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  // API tokens: sessions would expire while the tests move the clock by days.
  const admin = (adminToken = t0.token(t0.user({ orgId: org, role: 'admin' })));
  owner = t0.user({ orgId: org, role: 'user', email: 'owner@suborg.test' });
  ownerToken = t0.token(owner);
  modelerToken = t0.token(t0.user({ orgId: org, role: 'modeler' }));
  member = t0.user({ orgId: org, role: 'user', email: 'member@suborg.test' });
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  deps = t0.app.services.subscriptions;
});
test.after.always(async () => {
  await t0?.stop();
  await smtp?.stop();
  await hooks?.stop();
});
test.afterEach.always(async () => {
  await t0.app.services.executor.run(sql`DELETE FROM subscriptions`);
});

const question = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await call(t0, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by country', connection_id: 'wh', sql: SQL, chart: SPEC, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
};
const subscribe = async (body: Record<string, unknown>, token = ownerToken) => {
  const res = await call(t0, 'POST', '/api/subscriptions', { token, body: { schedule: { cron: '0 9 * * *', timezone: 'Europe/Paris' }, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; next_run_at: string };
};
// Read as an admin: an owner deactivated by a test can no longer read their own.
const runs = async (id: string) => (await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token: adminToken })).body.runs as { status: string; slot_at: string | null; deliveries: { status: string; target: string; attempts: number; error: string | null }[]; error: string | null }[];
/** Moves the clock to the subscription's next slot and ticks. */
const atNextSlot = async (id: string, extra = 0) => {
  const s = (await call(t0, 'GET', `/api/subscriptions/${id}`, { token: adminToken })).body as { next_run_at: string };
  t0.clock.set(Date.parse(s.next_run_at) + extra);
  await tick(deps);
};

/**
 * Checks that a report mail carries a link that unsubscribes its own address from `subscriptionId`,
 * in its text and as its one-click header: the address the signed token names is the recipient's.
 */
const unsubscribes = (t: ExecutionContext, mail: CapturedMail, subscriptionId: string) => {
  const text = mimeParts(mail.raw).find((p) => p.contentType === 'text/plain')?.body.toString() ?? '';
  const link = /(http:\/\/127\.0\.0\.1:9\/unsubscribe\?token=[^\s"<]+)/.exec(text)?.[1];
  t.truthy(link, `an unsubscribe link in the mail to ${mail.to.join()}`);
  const [sub, address] = decodeURIComponent(new URL(link!).searchParams.get('token')!).split('.');
  t.deepEqual([sub, Buffer.from(address!, 'base64url').toString()], [subscriptionId, mail.to[0]]);
  t.regex(mimeHeaders(mail.raw)['list-unsubscribe'] ?? '', /^<http:\/\/127\.0\.0\.1:9\/api\/subscriptions\/unsubscribe\?token=/);
};

test.serial('a scheduled slot mails the report as its owner ran it: escaped HTML, the chart as an inline PNG, the rows as CSV, an unsubscribe link and headers', async (t) => {
  const id = await question(ownerToken, { title: 'Orders <script>alert(1)</script> & co' });
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  t.is(new Date(sub.next_run_at).toISOString(), '2026-01-16T08:00:00.000Z');
  await atNextSlot(sub.id);
  const mail = await smtp.next(member.email);
  t.is(mail.subject, 'Orders <script>alert(1)</script> & co');
  const parts = mimeParts(mail.raw);
  const html = parts.find((p) => p.contentType === 'text/html')!.body.toString('utf8');
  t.true(html.includes('Orders &lt;script&gt;alert(1)&lt;/script&gt; &amp; co'));
  t.false(html.includes('<script>'));
  t.regex(html, /<td[^>]*>France<\/td><td[^>]*>2<\/td>/);
  const png = parts.find((p) => p.contentType === 'image/png')!;
  t.deepEqual([...png.body.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  t.true(html.includes(`cid:${png.cid}`));
  const csv = parts.find((p) => p.contentType === 'text/csv')!;
  t.true(csv.body.toString().startsWith('country,n\r\n'));
  const headers = mimeHeaders(mail.raw);
  t.is(headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
  t.regex(headers['list-unsubscribe'] ?? '', /^<http:\/\/127\.0\.0\.1:9\/api\/subscriptions\/unsubscribe\?token=/);
  await deps.mail.idle();
  const log = await runs(sub.id);
  t.is(log.length, 1);
  t.like(log[0], { status: 'sent', slot_at: '2026-01-16T08:00:00.000Z', error: null });
  t.deepEqual(log[0]!.deliveries, [{ channel: 'email', target: member.email, status: 'sent', attempts: 1, error: null }]);
});

test.serial('two replicas ticking the same slot at once send it once', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  const s = (await call(t0, 'GET', `/api/subscriptions/${sub.id}`, { token: ownerToken })).body as { next_run_at: string };
  t0.clock.set(Date.parse(s.next_run_at));
  await Promise.all([tick({ ...deps, replicaId: 'replica-a' }), tick({ ...deps, replicaId: 'replica-b' }), tick(deps)]);
  await smtp.next(member.email);
  await deps.mail.idle();
  t.is((await runs(sub.id)).filter((r) => r.status === 'sent').length, 1);
  t.is(smtp.mails.filter((m) => m.to.includes(member.email)).length, 0);
});

test.serial('slots that passed while no replica ran are logged as missed, and only the latest is sent', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  await atNextSlot(sub.id, 2 * DAY + 60_000);
  await smtp.next(member.email);
  const log = await runs(sub.id);
  t.deepEqual(log.map((r) => r.status).sort(), ['missed', 'missed', 'sent']);
  const sent = log.find((r) => r.status === 'sent')!;
  t.true(log.filter((r) => r.status === 'missed').every((r) => r.slot_at! < sent.slot_at!));
});

test.serial('a run taken over after its replica died mid-run is sent once, and the late replica sends nothing', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  const s = (await call(t0, 'GET', `/api/subscriptions/${sub.id}`, { token: ownerToken })).body as { next_run_at: string };
  const slot = Date.parse(s.next_run_at);
  // The replica that claimed the slot died before ending the run: its row stays running, claimed until it expires.
  await t0.app.services.executor.batch([
    sql`UPDATE subscriptions SET next_slot_at = ${slot + DAY} WHERE id = ${sub.id}`,
    sql`INSERT INTO subscription_runs (id, subscription_id, slot_at, status, claimed_by, claimed_until, started_at) VALUES ('run-dead', ${sub.id}, ${slot}, 'running', 'dead', ${slot + 600_000}, ${slot})`,
  ]);
  t0.clock.set(slot + 60_000);
  await tick(deps);
  t.is((await runs(sub.id))[0]!.status, 'running');
  t0.clock.set(slot + 600_001);
  await tick(deps);
  await smtp.next(member.email);
  // The dead replica comes back and tries to end the run: it no longer holds it.
  const late = await t0.app.services.executor.run(sql`UPDATE subscription_runs SET status = 'sent' WHERE id = 'run-dead' AND status = 'running' AND claimed_by = 'dead'`);
  t.is(late.changes, 0);
  await deps.mail.idle();
  t.deepEqual((await runs(sub.id)).map((r) => r.status), ['sent']);
  t.is(smtp.mails.filter((m) => m.to.includes(member.email)).length, 0);
});

test.serial('an alert sends when its threshold is crossed, once per crossing', async (t) => {
  const id = await question(ownerToken, { sql: 'SELECT 5 AS n', chart: null });
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }], alert: { column: 'n', op: '<', threshold: 10 } });
  const setN = async (n: number) => t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: ownerToken, body: { sql: `SELECT ${n} AS n` } })).status, 200);
  await atNextSlot(sub.id);
  const alerted = await smtp.next(member.email);
  t.regex(alerted.text, /Alert: n is 5 \(< 10\)/);
  unsubscribes(t, alerted, sub.id);
  await atNextSlot(sub.id);
  await setN(50);
  await atNextSlot(sub.id);
  await setN(3);
  await atNextSlot(sub.id);
  await smtp.next(member.email);
  t.deepEqual((await runs(sub.id)).map((r) => r.status), ['sent', 'not_crossed', 'not_crossed', 'sent']);
});

test.serial('webhooks post Slack, Teams and JSON bodies through the outbound client, retrying a failure with backoff', async (t) => {
  const id = await question(ownerToken, { title: 'Orders <@channel>' });
  const sub = await subscribe({
    saved_question_id: id,
    channels: [
      { type: 'webhook', url: `${hooks.url}/slack`, format: 'slack' },
      { type: 'webhook', url: `${hooks.url}/teams`, format: 'teams' },
      { type: 'webhook', url: `${hooks.url}/json`, format: 'json' },
    ],
  });
  hooks.received.length = 0;
  hooks.answer = [500];
  await atNextSlot(sub.id);
  // Webhooks go out from their own loop, never from the tick that claims slots.
  await deliverWebhooks(deps);
  t.is(hooks.received.length, 3);
  t.deepEqual((await runs(sub.id))[0]!.deliveries.map((d) => d.status).sort(), ['pending', 'sent', 'sent']);
  t0.clock.advance(30_000);
  await tick(deps);
  await deliverWebhooks(deps);
  t.deepEqual((await runs(sub.id))[0]!.deliveries.map((d) => d.status), ['sent', 'sent', 'sent']);
  const last = (path: string) => JSON.parse(hooks.received.filter((r) => r.path === path).at(-1)!.body);
  const slack = last('/slack');
  t.is(slack.text, 'Orders &lt;@channel&gt;');
  t.is(slack.blocks[0].type, 'header');
  t.is(last('/teams').attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
  const json = last('/json');
  t.like(json, { subscription_id: sub.id, title: 'Orders <@channel>' });
  const ran = await call(t0, 'POST', `/api/saved_questions/${id}/run`, { token: ownerToken });
  t.deepEqual(json.tiles[0].rows, ran.body.rows, 'the rows as POST /run answers them');
});

test.serial('a webhook that keeps failing is retried with backoff, given up after its attempts, and reported in the run log and by a mail to the owner', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'webhook', url: `${hooks.url}/down`, format: 'json' }] });
  hooks.answer = [503, 503, 503, 503, 503];
  await atNextSlot(sub.id);
  // Webhooks go out from their own loop, never from the tick that claims slots.
  await deliverWebhooks(deps);
  for (let i = 0; i < 5; i++) {
    t0.clock.advance(10 * 60_000);
    await tick(deps);
    await deliverWebhooks(deps);
  }
  t.like((await runs(sub.id))[0]!.deliveries[0], { status: 'failed', attempts: 5, error: 'HTTP 503' });
  const notice = await smtp.next(owner.email, /could not deliver/);
  const { text } = notice;
  t.true(text.includes(sub.id) && text.includes('HTTP 503'), text);
  t.false(text.includes('/down'), 'the webhook URL (its secret) stays out of the notice');
  // One notice: more ticks find nothing left to give up.
  t0.clock.advance(60 * 60_000);
  await tick(deps);
  await deliverWebhooks(deps);
  await deps.mail.idle();
  t.is(smtp.mails.filter((m) => m.to.includes(owner.email) && /could not deliver/.test(m.subject)).length, 0);
});

test.serial('a mail the relay keeps refusing is retried with backoff, then given up and reported as failed in the run log', async (t) => {
  const gone = t0.user({ orgId: org, role: 'user', email: 'gone@suborg.test' }).email;
  smtp.refuse.add(gone);
  t.teardown(() => smtp.refuse.delete(gone));
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email, gone] }] });
  await atNextSlot(sub.id);
  await smtp.next(member.email);
  await deps.mail.idle();
  const delivery = async () => (await runs(sub.id))[0]!.deliveries.find((d) => d.target === gone)!;
  t.like(await delivery(), { status: 'pending', attempts: 1 });
  // Not again before its wait (30 s after the first attempt), then on a doubling wait until given up.
  t0.clock.advance(29_000);
  await deps.mail.deliverDue();
  t.like(await delivery(), { status: 'pending', attempts: 1 });
  for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
    t0.clock.advance(3600_000);
    await deps.mail.deliverDue();
    t.is((await delivery()).attempts, attempt);
  }
  const failed = await delivery();
  t.like(failed, { status: 'failed', attempts: MAX_ATTEMPTS });
  t.regex(failed.error ?? '', /550/);
  t.like((await runs(sub.id))[0]!.deliveries.find((d) => d.target === member.email), { status: 'sent' });
  t.false(smtp.mails.some((m) => m.to.includes(gone)));
});

/** Moves the clock on and delivers until every due mail was sent or given up. */
const untilGivenUp = async () => {
  for (let attempt = 0; attempt <= MAX_ATTEMPTS; attempt++) {
    t0.clock.advance(3600_000);
    await deps.mail.deliverDue();
    await deps.mail.idle();
  }
};
/** Starts from an empty outbox and mailbox (earlier tests leave given-up mail and their notices). */
const freshMail = async () => {
  await deps.mail.idle();
  await t0.app.services.executor.run(sql`DELETE FROM outbox`);
  smtp.mails.length = 0;
};
const notices = async () =>
  (await t0.app.services.executor.all(sql<{ to_address: string }>`SELECT to_address FROM outbox WHERE subject = 'A Sextant subscription of yours could not deliver a mail'`)).map((r) => r.to_address);

test.serial('a report mail given up for good is reported to the subscription\'s owner, once', async (t) => {
  const gone = t0.user({ orgId: org, role: 'user', email: 'lost@suborg.test' }).email;
  smtp.refuse.add(gone);
  t.teardown(() => smtp.refuse.delete(gone));
  await freshMail();
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email, gone] }] });
  await atNextSlot(sub.id);
  await smtp.next(member.email);
  await untilGivenUp();
  t.like((await runs(sub.id))[0]!.deliveries.find((d) => d.target === gone), { status: 'failed', attempts: MAX_ATTEMPTS });
  const notice = await smtp.next(owner.email, /could not deliver a mail/);
  t.true(notice.text.includes(sub.id) && notice.text.includes(gone) && /550/.test(notice.text), notice.text);
  // Written once: later rounds find nothing left to give up.
  await untilGivenUp();
  t.deepEqual(await notices(), [owner.email]);
  t.false(smtp.mails.some((m) => /could not deliver a mail/.test(m.subject)));
  await t0.app.services.executor.run(sql`DELETE FROM outbox`);
});

test.serial('no notice goes to the very address that fails, and a notice given up in turn causes none', async (t) => {
  const gone = t0.user({ orgId: org, role: 'user', email: 'away@suborg.test' }).email;
  for (const address of [gone, owner.email]) smtp.refuse.add(address);
  t.teardown(() => [gone, owner.email].forEach((a) => smtp.refuse.delete(a)));
  await freshMail();
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [owner.email, gone] }] });
  await atNextSlot(sub.id);
  await untilGivenUp();
  t.deepEqual((await runs(sub.id))[0]!.deliveries.map((d) => d.status), ['failed', 'failed']);
  // One notice, for the other address's mail; it is refused too, given up, and reported to no one.
  t.deepEqual(await notices(), [owner.email]);
  await untilGivenUp();
  const [row] = await t0.app.services.executor.all(sql<{ failed_at: number | null }>`SELECT failed_at FROM outbox WHERE subject = 'A Sextant subscription of yours could not deliver a mail'`);
  t.truthy(row?.failed_at, 'the notice itself was given up');
  t.deepEqual(await notices(), [owner.email]);
  t.is(smtp.mails.length, 0);
  await t0.app.services.executor.run(sql`DELETE FROM outbox`);
});

test.serial('the unsubscribe link works without signing in, once, and the address gets no more reports', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email, owner.email] }] });
  await atNextSlot(sub.id);
  const mail = await smtp.next(member.email);
  await smtp.next(owner.email);
  const link = /(http:\/\/127\.0\.0\.1:9\/unsubscribe\?token=[^\s"<]+)/.exec(mimeParts(mail.raw).find((p) => p.contentType === 'text/plain')!.body.toString())![1]!;
  const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
  const tampered = await t0.fetch(`/api/subscriptions/unsubscribe?token=${encodeURIComponent(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`, { method: 'POST' });
  t.is(tampered.status, 400);
  // A mail client's one-click POST (RFC 8058): the token in the query, a form body, no credential.
  const res = await t0.fetch(`/api/subscriptions/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
  t.is(res.status, 200);
  t.like(await res.json(), { unsubscribed: true, address: member.email });
  t.is((await call(t0, 'POST', '/api/subscriptions/unsubscribe', { body: { token } })).status, 200);
  t.deepEqual((await call(t0, 'GET', `/api/subscriptions/${sub.id}`, { token: ownerToken })).body.unsubscribed, [member.email]);
  await atNextSlot(sub.id);
  await smtp.next(owner.email);
  await deps.mail.idle();
  t.deepEqual((await runs(sub.id))[0]!.deliveries.map((d) => d.target), [owner.email]);
});

test.serial('an owner who lost the saved question stops the subscription, with a notice mailed to them', async (t) => {
  const id = await question(modelerToken, { visibility: 'organization' });
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: modelerToken, body: { visibility: 'private' } })).status, 200);
  await atNextSlot(sub.id);
  const notice = await smtp.next(owner.email, /stopped/);
  t.regex(notice.text, new RegExp(sub.id));
  const after = (await call(t0, 'GET', `/api/subscriptions/${sub.id}`, { token: ownerToken })).body;
  t.like(after, { status: 'stopped', next_run_at: null });
  t.like((await runs(sub.id))[0], { status: 'stopped' });
  t.false(smtp.mails.some((m) => m.to.includes(member.email)));
});

test.serial('a deactivated owner\'s subscription stops at its next run and sends nothing', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  const x = t0.app.services.executor;
  await x.run(sql`UPDATE memberships SET deactivated_at = ${t0.clock.now()} WHERE user_id = ${owner.id} AND org_id = ${org}`);
  try {
    await atNextSlot(sub.id);
    await smtp.next(owner.email, /stopped/);
    const row = await x.one(sql<{ status: string }>`SELECT status FROM subscriptions WHERE id = ${sub.id}`);
    t.is(row?.status, 'stopped');
    t.false(smtp.mails.some((m) => m.to.includes(member.email)));
  } finally {
    await x.run(sql`UPDATE memberships SET deactivated_at = NULL WHERE user_id = ${owner.id} AND org_id = ${org}`);
  }
});

test.serial('an address outside the organization is mailed only while an admin allows it, checked again at each run', async (t) => {
  const guest = 'guest@elsewhere.test';
  const allow = async (on: boolean) => t.is((await call(t0, 'PATCH', '/api/admin/organization/settings', { token: adminToken, body: { subscription_external_recipients: on } })).status, 200);
  await allow(true);
  try {
    const id = await question(ownerToken);
    const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email, guest] }] });
    await atNextSlot(sub.id);
    unsubscribes(t, await smtp.next(guest), sub.id);
    unsubscribes(t, await smtp.next(member.email), sub.id);
    await allow(false);
    await atNextSlot(sub.id);
    await smtp.next(member.email);
    await deps.mail.idle();
    t.false(smtp.mails.some((m) => m.to.includes(guest)), 'no mail to the outside address once the setting is off');
    t.deepEqual((await runs(sub.id)).map((r) => r.deliveries.map((d) => d.target)), [[member.email], [member.email, guest]]);
  } finally {
    await allow(false);
  }
});

test.serial('send now sends at once, outside the schedule, and logs the run without a slot', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, channels: [{ type: 'email', to: [member.email] }] });
  const res = await call(t0, 'POST', `/api/subscriptions/${sub.id}/send_now`, { token: ownerToken });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body, { status: 'sent', slot_at: null });
  unsubscribes(t, await smtp.next(member.email), sub.id);
  t.is((await call(t0, 'GET', `/api/subscriptions/${sub.id}`, { token: ownerToken })).body.next_run_at, sub.next_run_at);
});

test.serial('after a long stop, a schedule every minute logs every passed slot as missed and sends only the latest, once', async (t) => {
  const id = await question(ownerToken);
  const sub = await subscribe({ saved_question_id: id, schedule: { cron: '* * * * *', timezone: 'UTC' }, channels: [{ type: 'email', to: [member.email] }] });
  // A day of slots (1,441): more than one tick looks at, so the first logs 1,000 as missed and sends nothing.
  await atNextSlot(sub.id, DAY);
  await tick(deps);
  await smtp.next(member.email);
  await deps.mail.idle();
  const x = t0.app.services.executor;
  const counts = await x.all(sql<{ status: string; n: number }>`SELECT status, count(*) AS n FROM subscription_runs WHERE subscription_id = ${sub.id} GROUP BY status ORDER BY status`);
  t.deepEqual(counts.map((c) => [c.status, Number(c.n)]), [['missed', 1440], ['sent', 1]]);
  const sent = await x.one(sql<{ slot_at: number }>`SELECT slot_at FROM subscription_runs WHERE subscription_id = ${sub.id} AND status = 'sent'`);
  t.is(Number(sent?.slot_at), t0.clock.now());
  t.is(smtp.mails.filter((m) => m.to.includes(member.email)).length, 0);
});

test.serial('a dashboard subscription mails every question tile as the owner reads it, with a tile the owner lost kept as its error', async (t) => {
  const first = await question(ownerToken, { title: 'Tile one' });
  const second = await question(modelerToken, { title: 'Tile two', visibility: 'organization' });
  const made = await call(t0, 'POST', '/api/dashboards', {
    token: ownerToken,
    body: {
      title: 'Monday numbers',
      tiles: [
        { saved_question_id: first, x: 0, y: 0, w: 6, h: 4 },
        { saved_question_id: second, x: 6, y: 0, w: 6, h: 4 },
        { text: 'Notes for the team', x: 0, y: 4, w: 12, h: 2 },
      ],
    },
  });
  t.is(made.status, 201, JSON.stringify(made.body));
  const sub = await subscribe({ dashboard_id: made.body.id, channels: [{ type: 'email', to: [member.email] }] });
  // The second tile's question becomes private to its author: the owner no longer reads it.
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${second}`, { token: modelerToken, body: { visibility: 'private' } })).status, 200);
  await atNextSlot(sub.id);
  const mail = await smtp.next(member.email);
  t.is(mail.subject, 'Monday numbers');
  unsubscribes(t, mail, sub.id);
  const html = mimeParts(mail.raw).find((p) => p.contentType === 'text/html')!.body.toString('utf8');
  t.true(html.includes('Tile one'));
  t.regex(html, /<td[^>]*>France<\/td><td[^>]*>2<\/td>/);
  t.regex(html, /color:#a00/, 'the lost tile shows its error');
  t.is(mimeParts(mail.raw).filter((p) => p.contentType === 'text/csv').length, 1, 'only the tile that ran has a CSV');
  await deps.mail.idle();
  t.like((await runs(sub.id))[0], { status: 'sent' });
});
