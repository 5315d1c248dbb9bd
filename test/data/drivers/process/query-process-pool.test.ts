// The pool of query processes: a bound on processes at work, a fair share per owner, waits bounded by
// the query's budget and by its caller, processes that die freeing their place, and a close that
// ends them all.
import test from 'ava';
import { QueryProcessPool } from '../../../../src/data/drivers/process/query-process-pool.ts';

test('at most `max` processes work at once; an owner at its share waits while others go ahead', async (t) => {
  const pool = new QueryProcessPool({ max: 2, memoryMb: 256, perOwner: 1 });
  t.teardown(() => pool.close());
  const a1 = await pool.lease({ owner: 'a', waitMs: 5_000 });
  let a2Granted = false;
  const a2 = pool.lease({ owner: 'a', waitMs: 5_000 }).then((p) => ((a2Granted = true), p));
  // b is not held up by a's waiting second query.
  const b1 = await pool.lease({ owner: 'b', waitMs: 5_000 });
  t.false(a2Granted);
  t.deepEqual(pool.size, { busy: 2, idle: 0 });
  pool.release(a1, true);
  const second = await a2;
  t.is(second, a1, 'the healthy process is handed on');
  await t.throwsAsync(pool.lease({ owner: 'c', waitMs: 50 }), { code: 'WAREHOUSE_BUSY' });
  pool.release(b1, false);
  pool.release(second, true);
  // The killed process was replaced by a spare, and the healthy one waits beside it.
  t.deepEqual(pool.size, { busy: 0, idle: 2 });
});

test('when the last idle process is taken, a spare starts with the same engine loaded', async (t) => {
  const pool = new QueryProcessPool({ max: 3, memoryMb: 256 });
  t.teardown(() => pool.close());
  const p = await pool.lease({ waitMs: 5_000, engine: 'sqlite' });
  t.deepEqual(pool.size, { busy: 1, idle: 1 });
  const spare = await pool.lease({ waitMs: 5_000, engine: 'sqlite' });
  t.is(spare.engine, 'sqlite');
  // A private pool of one never starts spares: it would outlive its driver's need.
  const single = new QueryProcessPool({ max: 1, memoryMb: 256, maxIdle: 0 });
  t.teardown(() => single.close());
  await single.lease({ waitMs: 5_000, engine: 'duckdb' });
  t.deepEqual(single.size, { busy: 1, idle: 0 });
  pool.release(p, true);
  pool.release(spare, true);
});

test('as many processes as were at work at once lately stay warm between sessions, so a second burst starts none', async (t) => {
  const pool = new QueryProcessPool({ max: 8, memoryMb: 256, maxIdle: 2 });
  t.teardown(() => pool.close());
  const burst = () => Promise.all([1, 2, 3, 4].map(() => pool.lease({ waitMs: 5_000, engine: 'sqlite' })));
  const first = await burst();
  for (const p of first) pool.release(p, true);
  const warm = pool.size.idle;
  // The four of the burst and the spare started beside them are kept (before, all but two were ended).
  t.is(warm, 5);
  const second = await burst();
  t.deepEqual(pool.size, { busy: 4, idle: warm - 4 });
  for (const p of second) t.true(first.includes(p) || p.alive);
  for (const p of second) pool.release(p, true);
  // A pool told to keep none keeps none, whatever it needed lately.
  const none = new QueryProcessPool({ max: 2, memoryMb: 256, maxIdle: 0 });
  t.teardown(() => none.close());
  const both = await Promise.all([none.lease({ waitMs: 5_000 }), none.lease({ waitMs: 5_000 })]);
  for (const p of both) none.release(p, true);
  t.deepEqual(none.size, { busy: 0, idle: 0 });
});

test('warm processes beyond the idle limit end once the peak is forgotten, with no session to release one', async (t) => {
  const pool = new QueryProcessPool({ max: 8, memoryMb: 256, maxIdle: 2, peakMs: 1_500 });
  t.teardown(() => pool.close());
  const burst = await Promise.all([1, 2, 3].map(() => pool.lease({ waitMs: 5_000 })));
  for (const p of burst) pool.release(p, true);
  t.is(pool.size.idle, 4);
  // The trim runs on a timer of its own; wait for it, within a bound.
  const until = performance.now() + 10_000;
  while (pool.size.idle > 2 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  t.deepEqual(pool.size, { busy: 0, idle: 2 });
});

test('a wait ends when its caller goes away, and a process that dies by itself frees its place', async (t) => {
  const pool = new QueryProcessPool({ max: 1, memoryMb: 256 });
  t.teardown(() => pool.close());
  const p = await pool.lease({ waitMs: 5_000 });
  const abort = new AbortController();
  const waiting = pool.lease({ waitMs: 5_000, signal: abort.signal });
  abort.abort();
  await t.throwsAsync(waiting, { code: 'QUERY_CANCELLED' });
  const next = pool.lease({ waitMs: 5_000 });
  process.kill(p.pid!, 'SIGKILL');
  const fresh = await next;
  t.not(fresh, p);
  t.true(fresh.alive);
  pool.release(fresh, true);
});

test('closing ends every process, fails the waiting leases and refuses new ones', async (t) => {
  const pool = new QueryProcessPool({ max: 1, memoryMb: 256 });
  const busy = await pool.lease({ waitMs: 5_000 });
  const waiting = pool.lease({ waitMs: 5_000 });
  await pool.close();
  await t.throwsAsync(waiting, { code: 'WAREHOUSE_UNAVAILABLE' });
  await t.throwsAsync(pool.lease({ waitMs: 5_000 }), { code: 'WAREHOUSE_UNAVAILABLE' });
  t.false(busy.alive);
  t.throws(() => process.kill(busy.pid!, 0), { code: 'ESRCH' });
});
