// Mirror pushes of one repository are ordered across processes sharing the data folder (each push
// sends the tip it reads, so two out of order could move a force-pushed branch back), and a push in
// progress does not hold up knowledge writes.
import test from 'ava';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FsClient } from 'isomorphic-git';
import { commitChanges, openAdvisoryLock, openRepo } from '../../src/git/index.ts';
import { freshPgDatabase, PG_TEST_CONNECT_TIMEOUT_MS, SKIP_PG_STORE } from '../helpers/pg-database.ts';

test('a push in progress in one process makes another process wait for its push, but not for its writes', async (t) => {
  const dir = fs.mkdtempSync(join(tmpdir(), 'push-lock-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'acme.git');
  // Two handles, each with an advisory lock on a pool of its own: two processes, as far as the
  // shared lock can tell. (The lock file tells processes apart by pid, so it cannot be shown in one.)
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE.replace('PostgreSQL store tests', 'push-lock test')), t.pass();
  const open = async () => {
    const shared = await openAdvisoryLock({ url, connectTimeoutMs: PG_TEST_CONNECT_TIMEOUT_MS });
    t.teardown(() => shared.close());
    return openRepo({ fs: fs as unknown as FsClient, gitdir, shared });
  };
  const a = await open();
  const b = await open();
  const order: string[] = [];
  let endPush!: () => void;
  const pushing = new Promise<void>((resolve) => (endPush = resolve));
  let started!: () => void;
  const aHolds = new Promise<void>((resolve) => (started = resolve));
  const first = a.pushLock.run(async () => {
    order.push('a starts');
    started();
    await pushing;
    order.push('a ends');
  });
  await aHolds;
  const second = b.pushLock.run(async () => void order.push('b pushes'));
  const write = await commitChanges({ repo: b, branch: 'main', author: { name: 'W', email: 'w@example.com', timestamp: 1 }, message: 'w', changes: [{ path: 'notes/w.yaml', content: 'w\n' }] });
  t.regex(write.oid, /^[0-9a-f]{40}$/, 'the write went through while the push lock was held');
  t.deepEqual(order, ['a starts'], 'the second push waits');
  endPush();
  await Promise.all([first, second]);
  t.deepEqual(order, ['a starts', 'a ends', 'b pushes']);
});
