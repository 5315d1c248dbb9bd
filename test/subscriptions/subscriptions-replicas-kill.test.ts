// Two replicas in processes of their own on one PostgreSQL database send exactly one mail per slot
// across 20 slots (every 2 s, real time) over a real SMTP server, while one of them is killed with
// kill -9 in the middle of a run: the other takes the run over once its claim has passed.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { openServiceStore } from '../../src/store/index.ts';
import { startPgTestApp } from '../helpers/app.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { startTestSmtp } from '../helpers/smtp.ts';

const SLOTS = 20;
const EVERY_MS = 2000;

function replica(databaseUrl: string, smtpUrl: string, id: string): { child: ChildProcess; renders: AsyncIterableIterator<string> } {
  const child = spawn(process.execPath, ['--import=tsx', new URL('./replica-child.ts', import.meta.url).pathname, databaseUrl, smtpUrl, id], { stdio: ['ignore', 'pipe', 'inherit'] });
  return { child, renders: createInterface({ input: child.stdout! })[Symbol.asyncIterator]() };
}

test('two replica processes send one mail per slot across 20 slots, one of them killed with kill -9 mid-run', async (t) => {
  t.timeout(180_000);
  const a = await startPgTestApp({ SEXTANT_SUBSCRIPTION_TICK_MS: '0' });
  if (!a) return t.log(SKIP_PG_STORE), t.pass();
  t.teardown(() => a.stop());
  const smtp = await startTestSmtp();
  t.teardown(() => smtp.stop());
  const org = await a.make.org('replicas');
  const owner = await a.make.user({ orgId: org, role: 'user', email: 'owner@replicas.test' });
  const store = await openServiceStore(a.config);
  t.teardown(() => store.close());
  const x = store.executor;
  const r1 = replica(a.config.databaseUrl!, smtp.url, 'r1');
  const r2 = replica(a.config.databaseUrl!, smtp.url, 'r2');
  t.teardown(() => void r1.child.kill('SIGKILL'));
  t.teardown(() => void r2.child.kill('SIGKILL'));
  // Both replicas are up before the first slot: a slot before that would rightly be logged as missed.
  await r1.renders.next();
  await r2.renders.next();
  // A slot every 2 seconds (a six-field cron the API does not take: the test sets it in the store).
  const first = Math.ceil((Date.now() + 1000) / EVERY_MS) * EVERY_MS;
  const last = first + (SLOTS - 1) * EVERY_MS;
  await x.run(sql`INSERT INTO subscriptions (id, org_id, owner_id, saved_question_id, dashboard_id, cron, timezone, channels, alert, alert_crossed, status, next_slot_at, created_at, updated_at)
    VALUES ('sub_replicas', ${org}, ${owner.id}, 'sq_x', NULL, '*/2 * * * * *', 'UTC', ${JSON.stringify([{ type: 'email', to: [owner.email] }])}, NULL, 0, 'active', ${first}, ${Date.now()}, ${Date.now()})`);
  void (async () => {
    for await (const _ of r2.renders);
  })();
  // Let r1 run a few slots, then kill it while it renders one.
  let seen = 0;
  for await (const _ of r1.renders) if (++seen === 4) break;
  r1.child.kill('SIGKILL');
  await once(r1.child, 'exit');
    for (;;) {
    const done = await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM subscription_runs WHERE subscription_id = 'sub_replicas' AND slot_at <= ${last} AND status <> 'running'`);
    if (Number(done?.n) >= SLOTS) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 1000));
  r2.child.kill('SIGKILL');
  await once(r2.child, 'exit');
  const runs = await x.all(sql<{ slot_at: string; status: string; started_at: string; finished_at: string }>`SELECT slot_at, status, started_at, finished_at FROM subscription_runs WHERE subscription_id = 'sub_replicas' AND slot_at <= ${last} ORDER BY slot_at`);
  t.deepEqual(runs.map((r) => Number(r.slot_at)), Array.from({ length: SLOTS }, (_, i) => first + i * EVERY_MS), 'one run per slot, none skipped');
  t.true(runs.every((r) => r.status === 'sent'), JSON.stringify(runs.map((r) => r.status)));
  t.true(runs.some((r) => Number(r.finished_at) - Number(r.started_at) >= 1500), 'the killed replica\'s run, ended by the other after its claim passed');
  const mails = smtp.mails.filter((m) => m.to.includes(owner.email)).length;
  const later = Number((await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM subscription_runs WHERE subscription_id = 'sub_replicas' AND slot_at > ${last} AND status = 'sent'`))?.n);
  t.is(mails, SLOTS + later, 'one mail per sent slot');
});
