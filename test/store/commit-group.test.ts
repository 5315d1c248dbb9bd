import test from 'ava';
import { sql } from 'kysely';
import { CommitGroup } from '../../src/store/commit-group.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

// A table of the test's own: `t (x INTEGER UNIQUE)`, read through the second executor (on
// PostgreSQL another pool, which sees only what has committed).
async function setup(c: Parameters<Parameters<typeof dialectTest>[1]>[1]) {
  await c.x.run(sql`CREATE TABLE t (x INTEGER UNIQUE)`);
  const committed = async () => (await c.other.all<{ x: number }>(sql`SELECT x FROM t ORDER BY x`)).map((r) => r.x);
  return { group: new CommitGroup(c.x), committed };
}
const insert = (x: number) => sql`INSERT INTO t VALUES (${x})`;

dialectTest('writes queued in one turn commit together in one batch, after which their promises settle', async (t, c) => {
  const { committed } = await setup(c);
  // The executor as the group uses it, with its batches counted.
  const batches: number[] = [];
  const group = new CommitGroup({ ...c.x, batch: (qs, options) => (batches.push(qs.length), c.x.batch(qs, options)) });
  const both = Promise.all([group.run(insert(1)), group.run(insert(2))]);
  t.deepEqual(batches, [], 'nothing runs before the end of the turn');
  t.deepEqual((await both).map((o) => o.changes), [1, 1]);
  t.deepEqual(batches, [2]);
  t.deepEqual(await committed(), [1, 2]);
});

dialectTest('a write that fails rolls back alone: only its caller sees the error, the others commit', async (t, c) => {
  const { group, committed } = await setup(c);
  const ok = group.run(insert(1));
  const failing = group.run(insert(1)); // the unique x = 1 is taken by the first write
  const after = group.run(insert(3));
  await t.throwsAsync(failing, { any: true });
  await ok;
  await after;
  t.deepEqual(await committed(), [1, 3]);
});

dialectTest('a conditional write tells its caller by its row count whether it took effect', async (t, c) => {
  const { group, committed } = await setup(c);
  const [first, second] = await Promise.all([group.run(sql`INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING`), group.run(sql`INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING`)]);
  t.deepEqual([first.changes, second.changes], [1, 0]);
  t.deepEqual(await committed(), [1]);
});

dialectTest('writes of a later turn make a group of their own', async (t, c) => {
  const { group, committed } = await setup(c);
  await group.run(insert(1));
  t.deepEqual(await committed(), [1]);
  await group.run(insert(2));
  t.deepEqual(await committed(), [1, 2]);
});

test('when the commit itself fails every caller of the group sees the error', async (t) => {
  const store = openStore({ file: ':memory:' });
  store.db.exec('CREATE TABLE t (x INTEGER UNIQUE)');
  const group = new CommitGroup(sqliteExecutor(store.db));
  const a = group.run(insert(1));
  const b = group.run(insert(2));
  store.close();
  await t.throwsAsync(a, { message: /not open/ });
  await t.throwsAsync(b, { message: /not open/ });
});

dialectTest('a group that reaches its largest size commits at once, and the rest of the turn makes another', async (t, c) => {
  const { committed } = await setup(c);
  const batches: number[] = [];
  const group = new CommitGroup({ ...c.x, batch: (qs, options) => (batches.push(qs.length), c.x.batch(qs, options)) }, 2);
  const writes = [1, 2, 3].map((x) => group.run(insert(x)));
  t.deepEqual(batches, [2], 'the full group is sent in the turn that filled it');
  t.deepEqual((await Promise.all(writes)).map((o) => o.changes), [1, 1, 1]);
  t.deepEqual(batches, [2, 1]);
  t.deepEqual(await committed(), [1, 2, 3]);
});

dialectTest('batches of several statements share the commit, each all or nothing: a failed requirement rolls back its own alone', async (t, c) => {
  const { committed } = await setup(c);
  const batches: number[] = [];
  const group = new CommitGroup({ ...c.x, batch: (qs, options) => (batches.push(qs.length), c.x.batch(qs, options)) });
  const pair = group.batch([insert(1), insert(2)]);
  const refused = group.batch([insert(3), sql`UPDATE t SET x = x WHERE x = 99`], { require: [1] });
  const single = group.run(insert(4));
  t.deepEqual(await refused, { ok: false, failed: 1 });
  const done = await pair;
  t.true(done.ok);
  t.deepEqual(done.ok && done.results.map((o) => o.changes), [1, 1]);
  t.is((await single).changes, 1);
  t.deepEqual(batches, [5, 2, 2, 1], 'the group first, then each batch alone after the refusal');
  t.deepEqual(await committed(), [1, 2, 4]);
});

dialectTest("the statements of each batch in a group get their own results, in order", async (t, c) => {
  const { group } = await setup(c);
  const [a, b] = await Promise.all([
    group.batch([insert(1), sql`SELECT x FROM t WHERE x = 1`]),
    group.batch([insert(2), sql`SELECT x FROM t ORDER BY x`], { require: [1] }),
  ]);
  t.deepEqual(a.ok && a.results.map((o) => o.rows), [[], [{ x: 1 }]]);
  t.deepEqual(b.ok && b.results.map((o) => o.rows), [[], [{ x: 1 }, { x: 2 }]]);
});
