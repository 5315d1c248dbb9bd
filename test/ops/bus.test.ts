// The message bus: in one process, synchronous delivery of the object published; between replicas,
// Redis pub/sub with requests answered by every replica and a resync after a lost connection.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { memoryBus, openRedisBus, type MessageBus } from '../../src/ops/bus/index.ts';
import { openRedis } from '../../src/store/open-redis.ts';
import { REDIS_URL, redisTest } from '../helpers/redis.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

const redis = await redisTest();

/** A replica's bus: its own publishing and subscribing connections, closed at the test's end. */
async function replica(t: { teardown(f: () => Promise<unknown>): void }, url: string, prefix: string): Promise<MessageBus> {
  const client = await openRedis(url);
  const bus = await openRedisBus(client, prefix);
  t.teardown(async () => {
    await bus.close();
    await client.quit().catch(() => client.disconnect());
  });
  return bus;
}

/** Resolves with the first `n` messages a handler receives. */
function receive(bus: MessageBus, channel: string, n: number): { messages: Promise<unknown[]>; ready: Promise<void> } {
  const seen: unknown[] = [];
  let done!: (m: unknown[]) => void;
  const messages = new Promise<unknown[]>((resolve) => (done = resolve));
  const sub = bus.subscribe(channel, (m) => {
    seen.push(m);
    if (seen.length === n) {
      sub.close();
      done(seen);
    }
  });
  return { messages, ready: sub.ready };
}

test('the memory bus delivers the very object published, synchronously, until the subscription closes', (t) => {
  const bus = memoryBus();
  const seen: unknown[] = [];
  const sub = bus.subscribe('c', (m, local) => seen.push([m, local]));
  const message = { n: 1 };
  bus.publish('c', message);
  t.is((seen[0] as unknown[])[0], message, 'no copy, no serialisation');
  t.true((seen[0] as unknown[])[1] as boolean);
  sub.close();
  bus.publish('c', { n: 2 });
  t.is(seen.length, 1);
  t.false(bus.shared);
});

test('a request on the memory bus has no other replica to answer it', async (t) => {
  const bus = memoryBus();
  bus.subscribe('c', () => 'answer');
  t.is(await bus.request('c', {}, 10_000), undefined);
});

redis('messages published on one replica arrive on the other in order, and once on the publisher', async (t) => {
  const prefix = `test-${randomUUID()}`;
  const [a, b] = await Promise.all([replica(t, REDIS_URL, prefix), replica(t, REDIS_URL, prefix)]);
  const onB = receive(b, 'events', 200);
  const onA: unknown[] = [];
  const subA = a.subscribe('events', (m, local) => onA.push({ m, local }));
  await Promise.all([onB.ready, subA.ready]);
  for (let i = 0; i < 200; i++) a.publish('events', { i });
  t.deepEqual(await onB.messages, Array.from({ length: 200 }, (_, i) => ({ i })));
  // Redis sends A's messages back to A too: they are not delivered a second time.
  await (await redisRoundTrip(b, a));
  t.is(onA.length, 200);
  t.true(onA.every((x) => (x as { local: boolean }).local));
});

/** Settles once a message from `from` reached `to`: everything `from` published before has been delivered. */
async function redisRoundTrip(from: MessageBus, to: MessageBus): Promise<Promise<unknown[]>> {
  const channel = `fence-${randomUUID()}`;
  const fence = receive(to, channel, 1);
  await fence.ready;
  from.publish(channel, 'fence');
  return fence.messages;
}

redis('a request is answered by the replica that knows, and settles at once when none does', async (t) => {
  const prefix = `test-${randomUUID()}`;
  const [a, b, c] = await Promise.all([replica(t, REDIS_URL, prefix), replica(t, REDIS_URL, prefix), replica(t, REDIS_URL, prefix)]);
  const owner = (name: string) => (m: unknown) => ((m as { run: string }).run === name ? { owner: name } : undefined);
  await Promise.all([a.subscribe('control', owner('a')).ready, b.subscribe('control', owner('b')).ready, c.subscribe('control', owner('c')).ready]);
  t.deepEqual(await a.request('control', { run: 'b' }, 60_000), { owner: 'b' });
  t.deepEqual(await a.request('control', { run: 'a' }, 60_000), { owner: 'a' }, 'the asker answers its own request too');
  // Nobody owns it: every replica answers nothing, so the wait ends long before the timeout.
  const started = performance.now();
  t.is(await c.request('control', { run: 'nobody' }, 60_000), undefined);
  t.true(performance.now() - started < 30_000);
  t.is(await a.request('no-subscriber', {}, 60_000), undefined, 'no replica listens: no wait at all');
});

redis('a subscriber whose connection to Redis was cut is told to resync once its channels are live again', async (t) => {
  const proxy = await startTcpProxy(new URL('http://127.0.0.1:6379'));
  t.teardown(() => proxy.close());
  const prefix = `test-${randomUUID()}`;
  const a = await replica(t, REDIS_URL, prefix);
  const b = await replica(t, `redis://127.0.0.1:${new URL(proxy.url).port}/0`, prefix);
  let resynced!: () => void;
  const resync = new Promise<void>((resolve) => (resynced = resolve));
  const seen: unknown[] = [];
  await b.subscribe('events', (m) => seen.push(m), () => resynced()).ready;
  proxy.cut();
  await resync;
  // After the resync the subscription is live: what A publishes now arrives.
  const next = receive(b, 'events', 1);
  await next.ready;
  a.publish('events', 'after');
  t.deepEqual(await next.messages, ['after']);
});
