import test from 'ava';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCheckpointer } from '../../src/store/checkpointer.ts';

function walDb(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-checkpoint-'));
  const file = join(dir, 'db.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (v TEXT)');
  t.teardown(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, file };
}

const fill = (db: Database.Database, rows: number) => {
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < rows; i++) insert.run('x'.repeat(1000));
};

test('a WAL past the threshold is checkpointed by the worker, and the writer reuses it from the start', async (t) => {
  const { db, file } = walDb(t);
  const cp = startCheckpointer(file, { everyMs: 60_000, thresholdBytes: 64 * 1024 });
  t.teardown(() => cp.stop());
  fill(db, 200);
  const grown = statSync(`${file}-wal`).size;
  await cp.check();
  // Everything was copied into the database, so the writer wraps around to the WAL's start: the file
  // does not grow past its first size (without the checkpoint it would double).
  fill(db, 200);
  t.true(statSync(`${file}-wal`).size <= grown);
  t.is((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 400);
});

test('a WAL under the threshold starts no worker and is left alone', async (t) => {
  const { db, file } = walDb(t);
  const cp = startCheckpointer(file, { everyMs: 60_000, thresholdBytes: 64 * 1024 * 1024 });
  t.teardown(() => cp.stop());
  fill(db, 50);
  const before = statSync(`${file}-wal`).size;
  await cp.check();
  fill(db, 50);
  t.true(statSync(`${file}-wal`).size > before);
});

test('stop settles once the worker has closed its connection: the store closing after it is the last, and removes the WAL', async (t) => {
  const { db, file } = walDb(t);
  const cp = startCheckpointer(file, { everyMs: 60_000, thresholdBytes: 64 * 1024 });
  fill(db, 200);
  await cp.check();
  await cp.stop();
  db.close();
  // Had the worker's connection still been open, the WAL would outlive this close (and the worker would
  // write into a folder its caller may be removing).
  t.false(existsSync(`${file}-wal`));
});

test('a checkpoint worker never creates the database it was started for', async (t) => {
  const { db, file } = walDb(t);
  // A second connection keeps the WAL when the first closes.
  const reader = new Database(file, { readonly: true });
  reader.prepare('SELECT count(*) FROM t').get();
  const cp = startCheckpointer(file, { everyMs: 60_000, thresholdBytes: 64 * 1024 });
  fill(db, 200);
  db.close();
  rmSync(file);
  t.true(statSync(`${file}-wal`).size > 64 * 1024);
  await cp.check();
  await cp.stop();
  reader.close();
  t.false(existsSync(file));
});
