import test from 'ava';
import { CommitGroup } from '../../src/store/commit-group.ts';
import { storeWithTable } from '../helpers/store.ts';

function setup(t: import('ava').ExecutionContext) {
  const { db, committed } = storeWithTable(t);
  return { db, group: new CommitGroup(db), committed };
}

test('writes queued in one turn commit together in one transaction, after which their promises settle', async (t) => {
  const { db, group, committed } = setup(t);
  const seen: boolean[] = [];
  const insert = (x: number) => () => {
    seen.push(db.inTransaction);
    return db.prepare('INSERT INTO t VALUES (?)').run(x).changes;
  };
  const both = Promise.all([group.run(insert(1)), group.run(insert(2))]);
  t.deepEqual(committed(), [], 'nothing runs before the end of the turn');
  t.deepEqual(await both, [1, 1]);
  t.deepEqual(seen, [true, true]);
  t.deepEqual(committed(), [1, 2]);
  t.false(db.inTransaction);
});

test('a write that throws rolls back alone: only its caller sees the error, the others commit', async (t) => {
  const { db, group, committed } = setup(t);
  const ok = group.run(() => db.prepare('INSERT INTO t VALUES (1)').run());
  const failing = group.run(() => {
    db.prepare('INSERT INTO t VALUES (2)').run();
    db.prepare('INSERT INTO t VALUES (1)').run(); // the unique x = 1 is taken by the first write
  });
  const after = group.run(() => db.prepare('INSERT INTO t VALUES (3)').run());
  await t.throwsAsync(failing, { any: true, code: 'SQLITE_CONSTRAINT_UNIQUE' });
  await ok;
  await after;
  t.deepEqual(committed(), [1, 3]);
});

test('writes of a later turn make a group of their own', async (t) => {
  const { db, group, committed } = setup(t);
  await group.run(() => db.prepare('INSERT INTO t VALUES (1)').run());
  t.deepEqual(committed(), [1]);
  await group.run(() => db.prepare('INSERT INTO t VALUES (2)').run());
  t.deepEqual(committed(), [1, 2]);
});

test('when the commit itself fails every caller of the group sees the error', async (t) => {
  const { db, group } = setup(t);
  const a = group.run(() => db.prepare('INSERT INTO t VALUES (1)').run());
  const b = group.run(() => db.prepare('INSERT INTO t VALUES (2)').run());
  db.close();
  await t.throwsAsync(a, { message: /not open/ });
  await t.throwsAsync(b, { message: /not open/ });
});
