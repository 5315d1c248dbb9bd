// Recent results: served for a few seconds after they were read, never past that, and bounded by cells.
import test from 'ava';
import { FakeClock } from '../../../src/clock.ts';
import { RECENT_RESULT_MS, recentResults } from '../../../src/data/query/recent-results.ts';

const result = (clock: FakeClock, rows: number, columns = 1) => ({
  columns: Array.from({ length: columns }, (_, i) => ({ name: `c${i}`, type: 'INTEGER' })),
  rows: Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, () => i)),
  truncated: false,
  readAt: clock.now(),
});

test('a result is served until RECENT_RESULT_MS after it was read, then forgotten', (t) => {
  const clock = new FakeClock();
  const kept = recentResults(clock);
  const r = result(clock, 3);
  kept.put('a', r);
  clock.advance(RECENT_RESULT_MS - 1);
  t.is(kept.get('a'), r);
  t.is(kept.get('b'), undefined);
  clock.advance(1);
  t.is(kept.get('a'), undefined);
});

test('a result already too old when it ends is not kept', (t) => {
  const clock = new FakeClock();
  const kept = recentResults(clock);
  const r = result(clock, 1);
  clock.advance(RECENT_RESULT_MS);
  kept.put('a', r);
  t.is(kept.get('a'), undefined);
});

test('results are bounded by cells: the oldest go first, and one larger than the bound is never kept', (t) => {
  const clock = new FakeClock();
  const kept = recentResults(clock, { maxCells: 100 });
  kept.put('a', result(clock, 40));
  kept.put('b', result(clock, 20, 2));
  kept.put('c', result(clock, 20));
  t.truthy(kept.get('a'));
  kept.put('d', result(clock, 10));
  t.is(kept.get('a'), undefined, 'the oldest made room');
  t.truthy(kept.get('b'));
  t.truthy(kept.get('d'));
  kept.put('e', result(clock, 101));
  t.is(kept.get('e'), undefined);
  t.truthy(kept.get('c'));
});
