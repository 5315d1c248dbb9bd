// A store in a real file with one table `t (x INTEGER UNIQUE)`, and a second connection that sees
// only what has committed: for tests of transactions and commit groups.
import type { ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';

export function storeWithTable(t: ExecutionContext) {
  const file = join(mkdtempSync(join(tmpdir(), 'sextant-store-')), 'test.db');
  const store = openStore({ file });
  store.db.exec('CREATE TABLE t (x INTEGER UNIQUE)');
  const other = new Database(file, { readonly: true });
  t.teardown(async () => {
    other.close();
    await store.close();
  });
  /** The values of `t` as another connection reads them. */
  const committed = () => other.prepare('SELECT x FROM t ORDER BY x').pluck().all();
  return { db: store.db, committed };
}
