// A stop sent over a second connection is shared while on its way, and the session waits for it to
// land before its next statement (src/data/drivers/warehouse-stop.ts).
import test from 'ava';
import { WarehouseStop } from '../../../src/data/drivers/warehouse-stop.ts';

/** A stop whose delivery the test lands by hand. */
function heldStops(fails = false) {
  const pending: (() => void)[] = [];
  let sent = 0;
  const stop = new WarehouseStop(() => {
    sent++;
    return new Promise<void>((resolve, reject) => pending.push(() => (fails ? reject(new Error('no route')) : resolve())));
  });
  return { stop, sent: () => sent, land: () => pending.shift()!() };
}

/** Whether `p` has settled once the microtasks queued so far have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

test('a second stop while one is on its way joins it instead of sending another', async (t) => {
  const { stop, sent, land } = heldStops();
  const first = stop.send();
  const second = stop.send();
  t.is(sent(), 1);
  t.false(await settled(second));
  land();
  await Promise.all([first, second]);
  void stop.send();
  t.is(sent(), 2, 'once landed, the next stop is a new one');
  land();
});

test('the next statement waits until the stop on its way has landed', async (t) => {
  const { stop, land } = heldStops();
  t.true(await settled(stop.landed()), 'nothing on its way: no wait');
  void stop.send();
  const ready = stop.landed();
  t.false(await settled(ready));
  land();
  t.true(await settled(ready));
});

test('a stop that could not be delivered still lets the session go on', async (t) => {
  const { stop, land } = heldStops(true);
  const sent = stop.send();
  const ready = stop.landed();
  land();
  await t.notThrowsAsync(sent);
  t.true(await settled(ready));
});

test('a stop that never lands holds the session no longer than its bound', async (t) => {
  const stop = new WarehouseStop(() => new Promise<void>(() => undefined), 20);
  const ready = stop.landed();
  t.true(await settled(ready));
  void stop.send();
  t.false(await settled(stop.landed()));
  await stop.landed();
  t.pass('the session goes on');
});
