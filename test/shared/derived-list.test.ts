import test from 'ava';
import { changeOf, mapList, recordChange, resorted, sortedIndex } from '../../src/shared/derived-list.ts';

interface El {
  n: number;
}

/** Seeded PRNG (mulberry32), so a failure is reproduced by its seed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A list made from `base` by removing and adding a few elements, with the change recorded. */
function changed(base: El[], rnd: () => number, next: () => El): El[] {
  const list = base.slice();
  const removed: El[] = [];
  const added: El[] = [];
  for (let k = Math.floor(rnd() * 4); k > 0 && list.length > 0; k--) removed.push(...list.splice(Math.floor(rnd() * list.length), 1));
  for (let k = Math.floor(rnd() * 4); k > 0; k--) {
    const e = next();
    list.splice(Math.floor(rnd() * (list.length + 1)), 0, e);
    added.push(e);
  }
  recordChange(list, { base, removed, added });
  return list;
}

test('a list mapped from a changed list equals the mapping of the whole list, over a chain of changes', (t) => {
  const rnd = prng(7);
  let n = 0;
  const next = () => ({ n: n++ });
  const mapped = new WeakMap<El, { m: number }>();
  // Odd elements are left out; the same element always maps to the same value.
  const f = (e: El) => {
    if (e.n % 2 === 1) return undefined;
    let m = mapped.get(e);
    if (!m) mapped.set(e, (m = { m: e.n }));
    return m;
  };
  const cache = new WeakMap<readonly El[], { m: number }[]>();
  let list = Array.from({ length: 200 }, next);
  const whole = mapList(list, cache, f);
  t.deepEqual(whole.map((m) => m.m), list.filter((e) => e.n % 2 === 0).map((e) => e.n));
  for (let round = 0; round < 300; round++) {
    list = changed(list, rnd, next);
    // Some lists are not mapped when made: a later one is then mapped through them.
    if (rnd() < 0.3) continue;
    const out = mapList(list, cache, f);
    t.deepEqual(out, list.flatMap((e) => f(e) ?? []), `round ${round}`);
    t.is(mapList(list, cache, f), out, 'once per list');
    const change = changeOf(out);
    t.truthy(change, 'the mapping is recorded as made from the mapping before');
  }
});

test('a list with no recorded change is mapped whole; one made from it is mapped from its mapping', (t) => {
  const cache = new WeakMap<readonly El[], El[]>();
  const base = [{ n: 1 }, { n: 2 }];
  t.deepEqual(mapList(base, cache, (e) => e).map((e) => e.n), [1, 2]);
  t.is(changeOf(mapList(base, cache, (e) => e)), undefined);
  const list = [{ n: 0 }, ...base, { n: 3 }];
  recordChange(list, { base, removed: [], added: [list[0]!, list[3]!] });
  const out = mapList(list, cache, (e) => e);
  t.deepEqual(out.map((e) => e.n), [0, 1, 2, 3]);
  t.is(changeOf(out)?.base, mapList(base, cache, (e) => e));
});

test('a sorted list with elements taken out and put in stays sorted like a fresh sort', (t) => {
  const rnd = prng(11);
  const compare = (a: El, b: El) => a.n - b.n;
  let sorted = Array.from({ length: 100 }, () => ({ n: Math.floor(rnd() * 50) })).sort(compare);
  for (let round = 0; round < 100; round++) {
    const removed = sorted.filter(() => rnd() < 0.03);
    const added = Array.from({ length: Math.floor(rnd() * 3) }, () => ({ n: Math.floor(rnd() * 50) }));
    const next = resorted(sorted, compare, removed, added);
    t.deepEqual(next.map((e) => e.n), sorted.filter((e) => !removed.includes(e)).concat(added).sort(compare).map((e) => e.n));
    t.is(next.length, sorted.length - removed.length + added.length);
    sorted = next;
  }
  t.is(sortedIndex([{ n: 1 }, { n: 2 }, { n: 2 }, { n: 3 }], { n: 2 }, compare), 3);
});
