// The query budget counts only the time spent waiting on the warehouse, stops the query once, and
// fails every wait with a typed error when it runs out or the caller's signal aborts.
import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import { QueryBudget, type StopReason } from '../../../../src/data/drivers/query-budget.ts';

function budget(timeoutMs: number, signal?: AbortSignal) {
  const stops: StopReason[] = [];
  return { stops, budget: new QueryBudget({ timeoutMs, signal, stop: (r) => stops.push(r) }) };
}

test('waits that end in time pass their value through, and the time between them does not count', async (t) => {
  const { budget: b, stops } = budget(400);
  for (let i = 0; i < 3; i++) {
    t.is(await b.track(delay(20, i)), i);
    // The reader's time: three of these alone would spend more than the whole budget.
    await delay(150);
  }
  b.dispose();
  t.deepEqual(stops, []);
  t.is(b.stopReason, undefined);
});

test('the budget spent across waits stops the query once, and every later wait fails at once', async (t) => {
  const { budget: b, stops } = budget(100);
  await b.track(delay(60));
  const started = performance.now();
  await t.throwsAsync(b.track(delay(5_000)), { code: 'QUERY_TIMEOUT' });
  t.true(performance.now() - started < 1000);
  await t.throwsAsync(b.track(Promise.resolve(1)), { code: 'QUERY_TIMEOUT' });
  t.deepEqual(stops, ['timeout']);
  t.is(b.stopReason, 'timeout');
});

test('what the engine says after being stopped (a killed process, an interrupt) reads as the stop', async (t) => {
  const stops: StopReason[] = [];
  let fail!: (e: Error) => void;
  const op = new Promise<never>((_, reject) => (fail = reject));
  const b = new QueryBudget({ timeoutMs: 50, stop: (r) => (stops.push(r), fail(new Error('process killed'))) });
  await t.throwsAsync(b.track(op), { code: 'QUERY_TIMEOUT' });
  t.deepEqual(stops, ['timeout']);
});

test('an aborted signal stops the query and fails the waits with QUERY_CANCELLED; an engine error passes as it is', async (t) => {
  const abort = new AbortController();
  const { budget: b, stops } = budget(10_000, abort.signal);
  await t.throwsAsync(b.track(Promise.reject(new Error('syntax error'))), { message: 'syntax error' });
  const waiting = b.track(delay(5_000));
  abort.abort();
  await t.throwsAsync(waiting, { code: 'QUERY_CANCELLED' });
  t.deepEqual(stops, ['cancelled']);
  // Aborting between waits stops the query too (the caller left while rows were being read).
  const other = new AbortController();
  const second = budget(10_000, other.signal);
  other.abort();
  t.deepEqual(second.stops, ['cancelled']);
  await t.throwsAsync(second.budget.track(Promise.resolve(1)), { code: 'QUERY_CANCELLED' });
});

test('a signal aborted before the query starts fails the first wait without a stop to make', async (t) => {
  const { budget: b, stops } = budget(10_000, AbortSignal.abort());
  await t.throwsAsync(b.track(Promise.resolve(1)), { code: 'QUERY_CANCELLED' });
  t.deepEqual(stops, []);
});
