// Two replicas of the built server (`node dist/main.js`) on one PostgreSQL database send exactly one
// mail per slot across 20 slots over a real SMTP server on loopback, while one of them is killed with
// kill -9 in the middle of a run and started again: the other takes the run over once its claim has
// passed, and the restarted one sends nothing twice. The schedule moves on a clock the test writes
// (SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE), not on waiting; the killed run is held mid-run by a lock the
// test takes on the warehouse table the saved question reads.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { postgresFixture } from '../data/warehouses.ts';
import { LOOPBACK_SERVERS } from '../helpers/app.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { SLOW_TEST_MS } from '../helpers/patience.ts';
import { redisTest } from '../helpers/redis.ts';
import { call, replicaSet, signIn, type Replica } from '../helpers/replicas.ts';
import { startTestSmtp } from '../helpers/smtp.ts';

const test = await redisTest();
const SLOTS = 20;
const KILLED_AT = 7;
const EVERY_MS = 15 * 60_000;
const OWNER = { email: 'admin@demo.sextant.local', password: 'demo-admin-password' };

interface RunStarted {
  run_id: string;
  slot_at: number | null;
  replica: string;
}

/** Every 'subscription run started' line a replica logs, as they come. */
function runsStarted(r: Replica): { all: RunStarted[]; next(slot: number): Promise<RunStarted> } {
  const all: RunStarted[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: r.proc.stdout }).on('line', (line) => {
    if (!line.includes('"subscription run started"')) return;
    all.push(JSON.parse(line) as RunStarted);
    for (const w of waiters.splice(0)) w();
  });
  return {
    all,
    async next(slot) {
      for (;;) {
        const found = all.find((s) => s.slot_at === slot);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

/** The first of several promises to resolve, with its index. */
const first = <T>(ps: Promise<T>[]) => Promise.race(ps.map((p, i) => p.then((v) => ({ i, v }))));

async function setUp(t: ExecutionContext) {
  const warehouse = await postgresFixture();
  if (!warehouse) return undefined;
  t.teardown(() => warehouse.drop());
  const smtp = await startTestSmtp();
  t.teardown(() => smtp.stop());
  const dir = mkdtempSync(join(tmpdir(), 'sextant-clock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clockFile = join(dir, 'now');
  // Written aside and renamed: a replica never reads half a time.
  const setClock = (ms: number) => {
    writeFileSync(`${clockFile}.tmp`, String(ms));
    renameSync(`${clockFile}.tmp`, clockFile);
  };
  setClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const set = await replicaSet(t, { SEXTANT_SMTP_URL: smtp.url, SEXTANT_SUBSCRIPTION_TICK_MS: '50', SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE: clockFile, SEXTANT_OUTBOUND_ALLOW: LOOPBACK_SERVERS });
  if (!set) return undefined;
  const store = new pg.Client({ connectionString: set.databaseUrl });
  await store.connect();
  t.teardown(() => store.end());
  const lock = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: String(warehouse.settings['database']) });
  await lock.connect();
  t.teardown(() => lock.end().catch(() => undefined));
  return { warehouse, smtp, setClock, set, store, lock };
}

test('two replicas of the built server on PostgreSQL send one mail per slot across 20 slots, one killed with kill -9 mid-run and restarted', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const env = await setUp(t);
  if (!env) return t.log(SKIP_PG_STORE), t.pass();
  const { warehouse, smtp, setClock, set, store, lock } = env;
  const replicas = await Promise.all([set.start(), set.start()]);
  const logs = replicas.map(runsStarted);
  const token = await signIn(replicas[0]!.url, OWNER.email, OWNER.password);
  const post = async (path: string, body: unknown) => {
    const res = await call(replicas[0]!.url, 'POST', path, { token, body });
    if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await post('/api/connections', { id: 'pgwh', name: 'Orders warehouse', type: 'postgresql', settings: warehouse.settings });
  const question = await post('/api/saved_questions', { title: 'Orders so far', connection_id: 'pgwh', sql: 'SELECT count(*) AS n FROM orders' });
  const sub = await post('/api/subscriptions', { saved_question_id: question['id'], schedule: { cron: '*/15 * * * *', timezone: 'UTC' }, channels: [{ type: 'email', to: [OWNER.email] }] });
  const slot0 = Date.parse(sub['next_run_at'] as string);
  t.is(slot0, Date.UTC(2026, 0, 15, 12, 15, 0), 'the schedule read on the test clock');

  let killed: string | undefined;
  for (let i = 0; i < SLOTS; i++) {
    const slot = slot0 + i * EVERY_MS;
    if (i !== KILLED_AT) {
      setClock(slot);
      await smtp.next(OWNER.email, /^Orders so far$/);
      continue;
    }
    // Hold the run mid-render: its query waits for the table the test has locked.
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
    setClock(slot);
    const { i: holder, v: started } = await first(logs.map((l) => l.next(slot)));
    killed = started.replica;
    await replicas[holder]!.kill();
    await lock.query('ROLLBACK');
    const row = await store.query<{ status: string; claimed_by: string }>('SELECT status, claimed_by FROM subscription_runs WHERE id = $1', [started.run_id]);
    t.deepEqual(row.rows[0], { status: 'running', claimed_by: killed }, 'killed mid-run: the run is still claimed by the dead replica');
    t.false(smtp.mails.some((m) => m.to.includes(OWNER.email)), 'nothing was sent for the slot yet');
    // Its claim (10 minutes) passes on the way to the next slot: the survivor takes the run over, then
    // sends the next slot; the killed replica comes back meanwhile (the same command again).
    const restarted = await set.start();
    replicas[holder] = restarted;
    logs[holder] = runsStarted(restarted);
    setClock(slot + EVERY_MS);
    await smtp.next(OWNER.email, /^Orders so far$/);
    await smtp.next(OWNER.email, /^Orders so far$/);
    i++;
  }

  // The mail queue marks a mail sent just after the SMTP server acknowledged it: the last one may lag.
  const sentMails = async () => Number((await store.query<{ n: string }>('SELECT count(sent_at) AS n FROM outbox WHERE to_address = $1', [OWNER.email])).rows[0]!.n);
  while ((await sentMails()) < SLOTS) await new Promise((r) => setTimeout(r, 20));
  const runs = await store.query<{ slot_at: string; status: string; claimed_by: string; sent: string }>(
    `SELECT r.slot_at, r.status, r.claimed_by, count(o.sent_at) AS sent FROM subscription_runs r
       LEFT JOIN subscription_deliveries d ON d.run_id = r.id LEFT JOIN outbox o ON o.id = d.outbox_id
     WHERE r.subscription_id = $1 GROUP BY r.id, r.slot_at, r.status, r.claimed_by ORDER BY r.slot_at`,
    [sub['id']],
  );
  t.deepEqual(runs.rows.map((r) => Number(r.slot_at)), Array.from({ length: SLOTS }, (_, i) => slot0 + i * EVERY_MS), 'one run per slot, none skipped');
  t.deepEqual(runs.rows.map((r) => [r.status, Number(r.sent)]), Array.from({ length: SLOTS }, () => ['sent', 1]), 'each run sent, one mail delivered each');
  t.not(runs.rows[KILLED_AT]!.claimed_by, killed, 'the killed replica\'s run was ended by another');
  const outbox = await store.query<{ n: string }>('SELECT count(*) AS n FROM outbox WHERE to_address = $1', [OWNER.email]);
  t.is(Number(outbox.rows[0]!.n), SLOTS, 'no mail queued beyond one per slot');
  t.is(smtp.mails.filter((m) => m.to.includes(OWNER.email)).length, 0, 'no mail received beyond one per slot');
});
