import test from 'ava';
import { StartQueue } from '../../src/agent/runs/start-queue.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('queued runs start a few per turn of the event loop, in order, and none before the next turn', async (t) => {
  const queue = new StartQueue(2);
  const started: number[] = [];
  for (let i = 1; i <= 5; i++) queue.push(() => started.push(i));
  t.deepEqual(started, []);
  await nextTurn();
  t.deepEqual(started, [1, 2]);
  await nextTurn();
  t.deepEqual(started, [1, 2, 3, 4]);
  await nextTurn();
  t.deepEqual(started, [1, 2, 3, 4, 5]);
});

test('I/O that became ready before a slice is served between slices', async (t) => {
  const queue = new StartQueue(1);
  const order: string[] = [];
  // A timer stands for a request: the first run's start takes long enough for it to be due (waiting)
  // when the slice ends.
  setTimeout(() => order.push('waiting I/O'), 1);
  queue.push(() => {
    order.push('run 1');
    const until = performance.now() + 3;
    while (performance.now() < until);
  });
  await new Promise<void>((resolve) => queue.push(() => resolve(void order.push('run 2'))));
  // (The timer may even come first, when the test itself was slow to reach the first turn.)
  t.deepEqual(order.filter((o) => o !== 'waiting I/O'), ['run 1', 'run 2']);
  t.true(order.indexOf('waiting I/O') < order.indexOf('run 2'));
});

test('a queue drained empty starts again on the next push', async (t) => {
  const queue = new StartQueue(4);
  const started: string[] = [];
  queue.push(() => started.push('a'));
  await nextTurn();
  queue.push(() => started.push('b'));
  await nextTurn();
  t.deepEqual(started, ['a', 'b']);
});
