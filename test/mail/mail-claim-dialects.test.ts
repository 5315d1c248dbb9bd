// The outbox on SQLite and PostgreSQL: a staged mail commits with its caller's batch; replicas
// draining one outbox through their own pools send each message once; a claim whose sender died runs
// out, and the message is due again.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { listOutbox, type MailMessage } from '../../src/mail/index.ts';
import { CLAIM_MS, claimNext, createMailQueue, MAX_ATTEMPTS } from '../../src/mail/mail-queue.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';

async function enqueue(x: Executor, count: number, due: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `m${String(i).padStart(3, '0')}`);
  for (const id of ids) {
    await x.run(sql`INSERT INTO outbox (id, to_address, subject, text_body, created_at, next_attempt_at) VALUES (${id}, ${`${id}@example.com`}, 'Hi', 'body', 0, ${due})`);
  }
  return ids;
}

/** One replica's drain: claim, "send", mark sent, until nothing is due. */
async function replica(x: Executor, now: number, sent: string[]): Promise<void> {
  for (let row = await claimNext(x, now); row; row = await claimNext(x, now)) {
    sent.push(row.id);
    await x.run(sql`UPDATE outbox SET sent_at = ${now}, next_attempt_at = NULL WHERE id = ${row.id}`);
  }
}

dialectTest('two replicas draining one outbox send each message once', async (t, { x, other }) => {
  const ids = await enqueue(x, 60, 1_000);
  const a: string[] = [];
  const b: string[] = [];
  await Promise.all([replica(x, 2_000, a), replica(other, 2_000, b), replica(x, 2_000, a), replica(other, 2_000, b)]);
  t.deepEqual([...a, ...b].toSorted(), ids, 'every message sent, none twice');
  t.is((await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL`))?.n, 0);
});

dialectTest('only due messages are claimed, oldest first, and a claim holds them for CLAIM_MS', async (t, { x }) => {
  await enqueue(x, 2, 1_000);
  await x.run(sql`INSERT INTO outbox (id, to_address, subject, text_body, created_at, next_attempt_at) VALUES ('later', 'l@example.com', 'Hi', 'b', 0, 5000), ('kept', 'k@example.com', 'Hi', 'b', 0, NULL)`);
  t.like(await claimNext(x, 1_000), { id: 'm000', to_address: 'm000@example.com', attempts: 0 });
  t.like(await claimNext(x, 1_000), { id: 'm001' });
  t.is(await claimNext(x, 1_000), undefined, 'the claimed ones are not due, the later one not yet, the outbox-only one never');
  // The sender died holding its claims: once they run out, the messages are due again.
  t.like(await claimNext(x, 1_000 + CLAIM_MS), { id: 'later' }, 'due since 5000, before the claims ran out');
  t.like(await claimNext(x, 1_000 + CLAIM_MS), { id: 'm000' });
});

dialectTest('two mail queues on their own pools deliver a shared outbox, each message once and marked sent', async (t, { x, other }) => {
  const ids = await enqueue(x, 30, 0);
  const sent: MailMessage[] = [];
  // Each send yields, so the two queues' claims interleave.
  const transport = { send: async (m: MailMessage) => void sent.push(await new Promise<MailMessage>((r) => setImmediate(() => r(m)))) };
  const queues = [x, other].map((store) => createMailQueue({ store, clock: new FakeClock(1_000), log: createLogger('silent'), transport }));
  await Promise.all(queues.map((q) => q.deliverDue()));
  await Promise.all(queues.map((q) => q.idle()));
  for (const q of queues) q.close();
  t.deepEqual(sent.map((m) => m.to).toSorted(), ids.map((id) => `${id}@example.com`));
  t.is((await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM outbox WHERE sent_at IS NOT NULL AND next_attempt_at IS NULL AND text_body = ''`))?.n, 30);
});

dialectTest('a staged mail is stored with the batch it joins, or not at all when the batch rolls back', async (t, { x }) => {
  const queue = createMailQueue({ store: x, clock: new FakeClock(1_000), log: createLogger('silent') });
  const kept = queue.stage({ to: 'kept@example.com', subject: 'Hi', text: 'kept' });
  t.true((await x.batch([kept.query, sql`UPDATE outbox SET subject = subject WHERE id = 'none'`])).ok);
  const dropped = queue.stage({ to: 'dropped@example.com', subject: 'Hi', text: 'dropped' });
  t.deepEqual(await x.batch([dropped.query, sql`UPDATE outbox SET subject = subject WHERE id = 'none'`], { require: [1] }), { ok: false, failed: 1 });
  t.deepEqual((await listOutbox(x)).map((m) => m.to), ['kept@example.com']);
});

dialectTest('the outbox lists the newest mail first, in queued order within one millisecond', async (t, { x }) => {
  const clock = new FakeClock(1_000);
  const queue = createMailQueue({ store: x, clock, log: createLogger('silent') });
  for (const n of [1, 2, 3]) await queue.enqueue({ to: `m${n}@example.com`, subject: 'Hi', text: String(n) });
  clock.advance(1);
  await queue.enqueue({ to: 'm4@example.com', subject: 'Hi', text: '4' });
  t.deepEqual((await listOutbox(x)).map((m) => m.text), ['4', '3', '2', '1']);
  t.deepEqual((await listOutbox(x, 2)).map((m) => m.text), ['4', '3']);
});

dialectTest('a message given up by two replicas (the first one\'s claim ran out mid-send) writes its hooks\' notice once', async (t, { x, other }) => {
  await x.run(sql`INSERT INTO outbox (id, to_address, subject, text_body, created_at, next_attempt_at, attempts) VALUES ('last', 'gone@example.com', 'Report', 'b', 0, 1000, ${MAX_ATTEMPTS - 1})`);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const slow = { send: async () => held.then(() => Promise.reject(new Error('550 No such mailbox'))) };
  const fast = { send: () => Promise.reject(new Error('550 No such mailbox')) };
  const clock = new FakeClock(1_000);
  const told: string[] = [];
  const replica = (store: Executor, transport: typeof fast) => {
    const q = createMailQueue({ store, clock, log: createLogger('silent'), transport });
    q.onGiveUp(async (m) => {
      told.push(m.id);
      return m.to === 'owner@example.com' ? undefined : [q.stage({ to: 'owner@example.com', subject: 'Notice', text: `${m.id} ${m.error}` })];
    });
    return q;
  };
  const slowQueue = replica(x, slow);
  const first = slowQueue.deliverDue();
  // The first replica holds the message past its claim; only then does the second start (a queue
  // delivers as it starts: started together, the fast one could claim the message first and alone).
  while ((await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM outbox WHERE next_attempt_at = ${1_000 + CLAIM_MS}`))?.n !== 1) await new Promise((r) => setImmediate(r));
  clock.set(1_000 + CLAIM_MS);
  const fastQueue = replica(other, fast);
  await fastQueue.deliverDue();
  release();
  await first;
  for (const q of [slowQueue, fastQueue]) q.close();
  t.deepEqual(told, ['last', 'last'], 'both replicas gave it up');
  const notices = await x.all(sql<{ to_address: string; text_body: string }>`SELECT to_address, text_body FROM outbox WHERE subject = 'Notice'`);
  t.deepEqual(notices.map((n) => n.to_address), ['owner@example.com']);
  t.regex(notices[0]!.text_body, /^last 550/);
  t.like(await x.one(sql<{ attempts: number }>`SELECT attempts FROM outbox WHERE id = 'last'`), { attempts: MAX_ATTEMPTS });
});
