// The asynchronous executor gives the same answers on SQLite and PostgreSQL: rows and row counts,
// batches that commit together or roll back together (on a required statement that changed nothing,
// or on an error), a batch nested in a legacy SQLite transaction, and two batches racing for one row.
import { sql } from 'kysely';
import test from 'ava';
import { openStore, transact } from '../../src/store/index.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { dialectTest, type DialectCase } from '../helpers/executors.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

async function scratch({ x }: DialectCase) {
  await x.run(sql`CREATE TABLE scratch (id TEXT PRIMARY KEY, status TEXT NOT NULL, n BIGINT NOT NULL)`);
  await x.run(x.db.insertInto('scratch').values([
    { id: 'a', status: 'running', n: 1 },
    { id: 'b', status: 'running', n: 1764000000000 },
  ]));
}

const statuses = async ({ x }: DialectCase) => x.all<{ id: string; status: string; n: number }>(x.db.selectFrom('scratch').selectAll().orderBy('id'));

dialectTest('one, all and run read and write with the same values and row counts', async (t, c) => {
  await scratch(c);
  const { x } = c;
  t.deepEqual(await x.one(x.db.selectFrom('scratch').selectAll().where('id', '=', 'b')), { id: 'b', status: 'running', n: 1764000000000 });
  t.is(await x.one(x.db.selectFrom('scratch').selectAll().where('id', '=', 'zz')), undefined);
  t.deepEqual(await x.one(x.db.selectFrom('scratch').select((eb) => eb.fn.countAll<number>().as('k'))), { k: 2 });
  t.deepEqual(await x.run(x.db.updateTable('scratch').set({ status: 'done' }).where('status', '=', 'running')), { changes: 2 });
  t.deepEqual(await x.run(x.db.updateTable('scratch').set({ status: 'done' }).where('status', '=', 'running')), { changes: 0 });
  t.deepEqual(await x.all(x.db.updateTable('scratch').set((eb) => ({ n: eb('n', '+', 1) })).where('id', '=', 'a').returning('n')), [{ n: 2 }]);
  t.deepEqual(await x.one(sql<{ v: string }>`SELECT ${'text'} AS v`), { v: 'text' });
  await t.throwsAsync(x.run(x.db.insertInto('scratch').values({ id: 'a', status: 'x', n: 0 })), { any: true });
});

dialectTest('a batch commits every statement together and reports each one', async (t, c) => {
  await scratch(c);
  const { x } = c;
  const r = await x.batch([
    x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'a'),
    x.db.insertInto('scratch').values({ id: 'c', status: 'running', n: 3 }).returning('id'),
    x.db.selectFrom('scratch').select('id').where('status', '=', 'running').orderBy('id'),
  ], { require: [0, 1] });
  t.deepEqual(r, { ok: true, results: [{ rows: [], changes: 1 }, { rows: [{ id: 'c' }], changes: 1 }, { rows: [{ id: 'b' }, { id: 'c' }], changes: 2 }] });
});

dialectTest('a required statement that changes no row rolls the whole batch back and is named', async (t, c) => {
  await scratch(c);
  const { x } = c;
  const r = await x.batch([
    x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'a'),
    x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'nope'),
    x.db.deleteFrom('scratch'),
  ], { require: [0, 1] });
  t.deepEqual(r, { ok: false, failed: 1 });
  t.deepEqual((await statuses(c)).map((s) => s.status), ['running', 'running']);
  // Not required, the same miss commits.
  t.true((await x.batch([x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'nope')])).ok);
});

dialectTest('an error in the middle of a batch rolls back what came before and rejects', async (t, c) => {
  await scratch(c);
  const { x } = c;
  await t.throwsAsync(x.batch([x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'a'), x.db.insertInto('scratch').values({ id: 'b', status: 'x', n: 0 })]), { any: true });
  t.deepEqual((await statuses(c)).map((s) => s.status), ['running', 'running']);
  t.true((await x.batch([x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', 'a')])).ok, 'the executor is usable after a failed batch');
});

dialectTest('two batches racing for one row with a conditional update: exactly one wins', async (t, c) => {
  await scratch(c);
  const attempt = (x: DialectCase['x'], to: string) =>
    x.batch([x.db.updateTable('scratch').set({ status: to }).where('id', '=', 'a').where('status', '=', 'running'), x.db.insertInto('scratch').values({ id: `won-${to}`, status: to, n: 0 })], { require: [0] });
  const results = await Promise.all([attempt(c.x, 'cancelled'), attempt(c.other, 'completed'), attempt(c.x, 'failed')]);
  t.is(results.filter((r) => r.ok).length, 1);
  t.deepEqual(results.filter((r) => !r.ok), [{ ok: false, failed: 0 }, { ok: false, failed: 0 }]);
  const rows = await statuses(c);
  const winner = rows.find((r) => r.id === 'a')!.status;
  t.deepEqual(rows.map((r) => r.id).filter((id) => id.startsWith('won-')), [`won-${winner}`]);
});

test('sqlite: a batch inside a legacy transaction is a savepoint: the outer rollback undoes it, its own rollback leaves the outer work', async (t) => {
  const store = openStore({ file: ':memory:' });
  t.teardown(() => store.close());
  const x = sqliteExecutor(store.db);
  await scratch({ x, other: x, sqlite: store.db, dialect: 'sqlite' });
  const done = (id: string) => x.db.updateTable('scratch').set({ status: 'done' }).where('id', '=', id);
  t.throws(() =>
    transact(store.db, () => {
      void x.batch([done('a')]);
      throw new Error('outer fails');
    }),
  );
  transact(store.db, () => {
    store.db.prepare(`UPDATE scratch SET status = 'legacy' WHERE id = 'b'`).run();
    void x.batch([done('a'), done('nope')], { require: [1] }).then((r) => t.deepEqual(r, { ok: false, failed: 1 }));
  });
  t.deepEqual(store.db.prepare('SELECT id, status FROM scratch ORDER BY id').all(), [{ id: 'a', status: 'running' }, { id: 'b', status: 'legacy' }]);
});

test('postgres: a statement or batch that PostgreSQL aborts as a deadlock or serialization failure is run again, and other errors are not', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  // The pool's Kysely, except that its next `failures` queries fail with the given SQLSTATE first.
  let failures = 0;
  let code = '40P01';
  const flaky = new Proxy(pg.db, {
    get(target, prop) {
      // Kysely's private fields need the real object as `this`.
      const value: unknown = Reflect.get(target, prop, target);
      if (prop !== 'executeQuery') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: Parameters<typeof target.executeQuery>) => {
        if (failures > 0) {
          failures--;
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code }));
        }
        return target.executeQuery(...args);
      };
    },
  });
  const x = pgExecutor(flaky);
  await x.run(sql`CREATE TABLE scratch (id TEXT PRIMARY KEY, n BIGINT NOT NULL)`);
  await x.run(sql`INSERT INTO scratch VALUES ('a', 0)`);
  failures = 2;
  t.deepEqual(await x.run(sql`UPDATE scratch SET n = n + 1 WHERE id = 'a'`), { changes: 1 });
  code = '40001';
  failures = 1;
  t.deepEqual(await x.all(sql`UPDATE scratch SET n = n + 1 WHERE id = 'a' RETURNING n`), [{ n: 2 }]);
  // Three failures in a row: the error reaches the caller.
  code = '40P01';
  failures = 3;
  await t.throwsAsync(x.run(sql`UPDATE scratch SET n = n + 1 WHERE id = 'a'`), { message: 'deadlock detected' });
  // Any other error is not retried: the statement ran once.
  code = '23505';
  failures = 1;
  await t.throwsAsync(x.run(sql`UPDATE scratch SET n = n + 1 WHERE id = 'a'`), { message: 'deadlock detected' });
  t.is(failures, 0);
  t.deepEqual(await x.one(sql`SELECT n FROM scratch`), { n: 2 });
});

test('postgres: two batches updating the same rows in opposite orders both commit, the one PostgreSQL aborts as a deadlock being run again', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const a = openTestPostgres(url);
  const b = openTestPostgres(url);
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const xa = pgExecutor(a.db);
  const xb = pgExecutor(b.db);
  await xa.run(sql`SET deadlock_timeout = '50ms'`);
  await xa.run(sql`CREATE TABLE scratch (id TEXT PRIMARY KEY, n BIGINT NOT NULL)`);
  await xa.run(sql`INSERT INTO scratch VALUES ('a', 0), ('b', 0)`);
  const bump = (id: string) => sql`UPDATE scratch SET n = n + 1 WHERE id = ${id}`;
  // Each holds its first row while the other takes its own, then asks for the other's: whichever
  // order the two end up in, both batches commit.
  const [ra, rb] = await Promise.all([
    xa.batch([bump('a'), sql`SELECT pg_sleep(0.2)`, bump('b')]),
    xb.batch([bump('b'), sql`SELECT pg_sleep(0.2)`, bump('a')]),
  ]);
  t.true(ra.ok && rb.ok);
  t.deepEqual(await xa.all(sql`SELECT id, n FROM scratch ORDER BY id`), [{ id: 'a', n: 2 }, { id: 'b', n: 2 }]);
});
