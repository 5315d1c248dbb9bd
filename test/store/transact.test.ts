import test from 'ava';
import { transact } from '../../src/store/index.ts';
import { storeWithTable } from '../helpers/store.ts';

function setup(t: import('ava').ExecutionContext) {
  const { db, committed } = storeWithTable(t);
  const insert = (x: number) => db.prepare('INSERT INTO t VALUES (?)').run(x);
  return { db, committed, insert };
}

test('a transaction commits its writes together when its function returns, and returns its result', (t) => {
  const { db, committed, insert } = setup(t);
  const result = transact(db, () => {
    insert(1);
    insert(2);
    t.true(db.inTransaction);
    t.deepEqual(committed(), [], 'nothing is visible before the commit');
    return 'done';
  });
  t.is(result, 'done');
  t.false(db.inTransaction);
  t.deepEqual(committed(), [1, 2]);
});

test('a transaction whose function throws stores nothing and rethrows the error', (t) => {
  const { db, committed, insert } = setup(t);
  const err = t.throws(() =>
    transact(db, () => {
      insert(1);
      throw new Error('changed my mind');
    }),
  );
  t.is(err?.message, 'changed my mind');
  t.false(db.inTransaction);
  t.deepEqual(committed(), []);
  insert(3);
  t.deepEqual(committed(), [3], 'the connection is usable afterwards');
});

test('a nested transaction that throws rolls back alone; the outer one goes on and commits', (t) => {
  const { db, committed, insert } = setup(t);
  transact(db, () => {
    insert(1);
    t.throws(() =>
      transact(db, () => {
        insert(2);
        insert(1); // UNIQUE violation
      }),
      { any: true, code: 'SQLITE_CONSTRAINT_UNIQUE' },
    );
    transact(db, () => insert(3));
  });
  t.deepEqual(committed(), [1, 3]);
});

test('an outer transaction that throws also undoes its released nested transactions', (t) => {
  const { db, committed, insert } = setup(t);
  t.throws(() =>
    transact(db, () => {
      transact(db, () => insert(1));
      throw new Error('abort');
    }),
  );
  t.deepEqual(committed(), []);
  t.false(db.inTransaction);
});

test('a function that returns a promise is refused and its writes are rolled back', (t) => {
  const { db, committed, insert } = setup(t);
  const err = t.throws(() =>
    transact(db, () => {
      insert(1);
      return Promise.resolve();
    }),
  );
  t.true(err instanceof TypeError);
  t.deepEqual(committed(), []);
  t.false(db.inTransaction);
});
