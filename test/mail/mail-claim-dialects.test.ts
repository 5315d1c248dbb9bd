// Claiming outbox messages on SQLite and PostgreSQL: replicas draining one outbox through their own
// pools send each message once; a claim whose sender died runs out, and the message is due again.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import type { MailMessage } from '../../src/mail/index.ts';
import { CLAIM_MS, claimNext, createMailQueue } from '../../src/mail/mail-queue.ts';
import type { Executor } from '../../src/store/executor.ts';
import { openStore } from '../../src/store/index.ts';
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

dialectTest('two mail queues on their own pools deliver a shared outbox, each message once and marked sent', async (t, { x, other, sqlite }) => {
  const ids = await enqueue(x, 30, 0);
  // Messages are seeded on the shared database above; the handle is only what enqueue would write through.
  const spare = sqlite ? undefined : openStore({ file: ':memory:' });
  if (spare) t.teardown(() => spare.close());
  const handle = sqlite ?? spare!.db;
  const sent: MailMessage[] = [];
  // Each send yields, so the two queues' claims interleave.
  const transport = { send: async (m: MailMessage) => void sent.push(await new Promise<MailMessage>((r) => setImmediate(() => r(m)))) };
  const queues = [x, other].map((store) => createMailQueue({ db: handle, x: store, clock: new FakeClock(1_000), log: createLogger('silent'), transport }));
  await Promise.all(queues.map((q) => q.deliverDue()));
  await Promise.all(queues.map((q) => q.idle()));
  for (const q of queues) q.close();
  t.deepEqual(sent.map((m) => m.to).toSorted(), ids.map((id) => `${id}@example.com`));
  t.is((await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM outbox WHERE sent_at IS NOT NULL AND next_attempt_at IS NULL AND text_body = ''`))?.n, 30);
});
