// Subscriptions on PostgreSQL: two replicas (each its own pool and mail queue on one database) tick
// every slot of 20 at the same moment, and each slot is run and mailed exactly once over a real SMTP
// server; a run whose replica died mid-run is taken over once. (The slot claims are conditional SQL
// that PostgreSQL rechecks on the row a concurrent transaction updated.)
import { sql } from 'kysely';
import { createLogger } from '../../src/log.ts';
import { createMailQueue, createSmtpMailer } from '../../src/mail/index.ts';
import { openServiceStore, type ServiceStore } from '../../src/store/index.ts';
import { tick, type SubscriptionDeps } from '../../src/subscriptions/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { pgApp, pgTest as test, sharedPgApp } from '../helpers/pg-app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const org = 'subpg';
const docs = createMemoryTableDocs();
const root = tempDir();
let smtp: TestSmtp;
test.before(async () => {
  smtp = await startTestSmtp();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
});
// No SMTP for the app itself: the two replicas below deliver the mail.
sharedPgApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_SUBSCRIPTION_TICK_MS: '0' }, { tableDocs: docs });
test.after.always(() => smtp?.stop());

test('two replicas on one PostgreSQL database send each of 20 slots exactly once, and take over a dead replica\'s run once', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  await a.make.org(org);
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  const owner = await a.make.user({ orgId: org, role: 'admin', email: 'owner@subpg.test' });
  const token = await a.make.token(owner);
  t.is((await call(a, 'POST', '/api/connections', { token, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } })).status, 201);
  const q = await call(a, 'POST', '/api/saved_questions', { token, body: { title: 'Orders', connection_id: 'wh', sql: 'SELECT count(*) AS n FROM orders' } });
  const sub = await call(a, 'POST', '/api/subscriptions', { token, body: { saved_question_id: q.body.id, schedule: { cron: '* * * * *', timezone: 'UTC' }, channels: [{ type: 'email', to: [owner.email] }] } });
  t.is(sub.status, 201, JSON.stringify(sub.body));
  const id = sub.body.id as string;
  // Each replica: its own pool on the database, its own mail queue delivering over SMTP.
  const log = createLogger('warn');
  const stores: ServiceStore[] = [await openServiceStore(a.config), await openServiceStore(a.config)];
  const transport = createSmtpMailer({ url: smtp.url, from: 'sextant@subpg.test' });
  const replicas: SubscriptionDeps[] = stores.map((s, i) => ({
    ...a.app.services.subscriptions,
    store: s.executor,
    replicaId: `replica-${i}`,
    mail: createMailQueue({ store: s.executor, clock: a.clock, log, transport }),
  }));
  try {
    let slot = Date.parse(sub.body.next_run_at as string);
    for (let i = 0; i < 20; i++) {
      a.clock.set(slot);
      if (i === 10) {
        // Slot 11: the replica that claimed it died before ending the run (its row stays running).
        await replicas[0]!.store.batch([
          sql`UPDATE subscriptions SET next_slot_at = ${slot + 60_000} WHERE id = ${id}`,
          sql`INSERT INTO subscription_runs (id, subscription_id, slot_at, status, claimed_by, claimed_until, started_at) VALUES ('dead-run', ${id}, ${slot}, 'running', 'dead', ${slot + 30_000}, ${slot})`,
        ]);
      }
      if (i === 11) a.clock.set(slot + 1); // past the dead run's claim: the next tick takes it over
      await Promise.all(replicas.map((r) => tick(r)));
      slot += 60_000;
    }
    // Each queue sends what it claims and waits for the server's answer: once both are idle, all arrived.
    await Promise.all(replicas.map((r) => r.mail.deliverDue()));
    await Promise.all(replicas.map((r) => r.mail.idle()));
    const runs = await stores[0]!.executor.all(sql<{ slot_at: string; status: string }>`SELECT slot_at, status FROM subscription_runs WHERE subscription_id = ${id} ORDER BY slot_at`);
    t.is(runs.length, 20);
    t.true(runs.every((r) => r.status === 'sent'), JSON.stringify(runs));
    t.is(new Set(runs.map((r) => String(r.slot_at))).size, 20);
    t.is(smtp.mails.filter((m) => m.to.includes(owner.email)).length, 20);
  } finally {
    transport.close();
    for (const r of replicas) r.mail.close();
    for (const s of stores) await s.close();
  }
});
