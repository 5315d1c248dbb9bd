// Following another replica's run: subscribe, read the store after the last id, drain what arrived
// meanwhile; a batch past a gap, or a resync, reads the store again. Every event once, in order.
import test from 'ava';
import type { StoredEvent } from '../../src/agent/index.ts';
import { followRemote, type RunBatch } from '../../src/agent/runs/remote-follow.ts';
import type { BusHandler, MessageBus } from '../../src/ops/bus/index.ts';

/** A shared bus under the test's hand: it says when the subscription is live and when to resync. */
function scriptedBus() {
  let handler: BusHandler = () => {};
  let resync: () => void = () => {};
  let live!: () => void;
  const ready = new Promise<void>((resolve) => (live = resolve));
  const bus: MessageBus = {
    shared: true,
    publish: () => {},
    subscribe(_channel, h, onResync) {
      handler = h;
      resync = onResync ?? (() => {});
      return { ready, close: () => (handler = () => {}) };
    },
    request: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
  return { bus, live, deliver: (batch: RunBatch) => handler(batch, false), resync: () => resync() };
}

const event = (id: number, type = 'text_delta'): StoredEvent => ({ id, run_id: 'r1', chat_id: 'c1', created_at: 0, event: (type === 'completed' ? { type } : { type, text: String(id) }) as StoredEvent['event'] });

/** The owner's journal as far as it is committed. */
function journal() {
  const committed: StoredEvent[] = [];
  return { committed, read: async (after: number) => committed.filter((e) => e.id > after) };
}

function follow(bus: MessageBus, read: (after: number) => Promise<StoredEvent[]>, afterId = 0) {
  const seen: number[] = [];
  let ended = false;
  followRemote({ bus, runId: 'r1', afterId, readCommitted: read, onEvent: (e) => seen.push(e.id), onEnd: () => (ended = true), onError: (err) => { throw err; } });
  return { seen, ended: () => ended };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('batches that arrive while the store is read are delivered after it, without repeats', async (t) => {
  const s = scriptedBus();
  const j = journal();
  j.committed.push(event(3), event(5), event(8));
  const f = follow(s.bus, j.read, 3);
  // Published (so committed) before the subscription was live, and buffered until it is.
  j.committed.push(event(9));
  s.deliver({ prev: 8, events: [event(9)] });
  t.deepEqual(f.seen, [], 'nothing before the subscription is live');
  s.live();
  await tick();
  t.deepEqual(f.seen, [5, 8, 9]);
  j.committed.push(event(11), event(12, 'completed'));
  s.deliver({ prev: 9, events: [event(11), event(12, 'completed')] });
  await tick();
  t.deepEqual(f.seen, [5, 8, 9, 11, 12]);
  t.true(f.ended());
});

test('a batch after a gap (messages lost while Redis was away) fills the gap from the store first', async (t) => {
  const s = scriptedBus();
  const j = journal();
  const f = follow(s.bus, j.read);
  s.live();
  await tick();
  j.committed.push(event(1), event(2));
  s.deliver({ prev: 0, events: [event(1), event(2)] });
  // The batch with 4 and 6 is lost; the next one says it came after 6.
  j.committed.push(event(4), event(6), event(7));
  s.deliver({ prev: 6, events: [event(7)] });
  await tick();
  t.deepEqual(f.seen, [1, 2, 4, 6, 7]);
});

test('a lost last batch is read from the store at the resync, and the follow ends', async (t) => {
  const s = scriptedBus();
  const j = journal();
  const f = follow(s.bus, j.read);
  s.live();
  await tick();
  j.committed.push(event(1), event(2, 'completed'));
  t.false(f.ended());
  s.resync();
  await tick();
  t.deepEqual(f.seen, [1, 2]);
  t.true(f.ended());
  // A late copy changes nothing.
  s.deliver({ prev: 0, events: [event(1), event(2, 'completed')] });
  await tick();
  t.deepEqual(f.seen, [1, 2]);
});

test('a run that completed before the subscription was live ends with the store read', async (t) => {
  const s = scriptedBus();
  const j = journal();
  j.committed.push(event(1), event(2, 'completed'));
  const f = follow(s.bus, j.read);
  s.live();
  await tick();
  t.deepEqual(f.seen, [1, 2]);
  t.true(f.ended());
});
