// The start-up move of the demo warehouse out of the shared folder, from every state a crash can
// leave behind, and a real installation of the old layout started again.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApp } from '../../../src/app.ts';
import { getUser, principalFor, organizationInsert, userInsert, membershipUpsert } from '../../../src/auth/index.ts';
import { sqliteNow } from '../../helpers/sqlite-now.ts';
import { FakeClock } from '../../../src/clock.ts';
import { DEMO_CONNECTION_ID, executeQuery, moveDemoWarehouse } from '../../../src/data/index.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { openStore, sqliteExecutor } from '../../../src/store/index.ts';
import { tempDir } from '../warehouses.ts';
import { nodeEntry } from '../../helpers/node-entry.ts';

/** A store with the demo organization and its connection pointing at the old shared location. */
function oldInstallation(root = join(tempDir(), 'warehouse')) {
  const dir = tempDir();
  const store = openStore({ file: join(dir, 'sextant.db') });
  const clock = new FakeClock();
  sqliteNow(store.db, (x) => organizationInsert(x, clock, { id: 'demo', name: 'Demo' }));
  const old = join(dir, 'warehouse', 'demo.duckdb');
  mkdirSync(join(dir, 'warehouse'), { recursive: true });
  writeFileSync(old, 'demo data');
  store.db
    .prepare('INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0)')
    .run('demo', DEMO_CONNECTION_ID, 'Demo warehouse', 'duckdb', JSON.stringify({ path: old, schema: 'main' }));
  const storedPath = () => (JSON.parse(store.db.prepare('SELECT settings FROM connections WHERE id = ?').pluck().get(DEMO_CONNECTION_ID) as string) as { path: string }).path;
  const move = () => moveDemoWarehouse({ store: sqliteExecutor(store.db), clock, log: createLogger('silent'), fileRoots: [root] }, 'demo');
  const target = join(root, 'demo', 'demo.duckdb');
  return { dir, store, old, root, target, storedPath, move };
}

test('the demo warehouse moves into the demo folder with its write-ahead log, and a second run changes nothing', async (t) => {
  const s = oldInstallation();
  t.teardown(() => s.store.close());
  writeFileSync(`${s.old}.wal`, 'log');
  await s.move();
  t.false(existsSync(s.old));
  t.is(readFileSync(s.target, 'utf8'), 'demo data');
  t.is(readFileSync(`${s.target}.wal`, 'utf8'), 'log');
  t.is(s.storedPath(), 'demo.duckdb');
  await s.move();
  t.is(s.storedPath(), 'demo.duckdb');
  t.is(readFileSync(s.target, 'utf8'), 'demo data');
});

test('every state an interrupted move leaves behind is finished by the next start', async (t) => {
  // The log moved, the main file not yet.
  const a = oldInstallation();
  t.teardown(() => a.store.close());
  writeFileSync(`${a.old}.wal`, 'log');
  mkdirSync(join(a.root, 'demo'), { recursive: true });
  renameSync(`${a.old}.wal`, `${a.target}.wal`);
  await a.move();
  t.deepEqual([existsSync(a.old), readFileSync(a.target, 'utf8'), readFileSync(`${a.target}.wal`, 'utf8'), a.storedPath()], [false, 'demo data', 'log', 'demo.duckdb']);
  // The file moved, the row not yet rewritten.
  const b = oldInstallation();
  t.teardown(() => b.store.close());
  mkdirSync(join(b.root, 'demo'), { recursive: true });
  renameSync(b.old, b.target);
  await b.move();
  t.deepEqual([readFileSync(b.target, 'utf8'), b.storedPath()], ['demo data', 'demo.duckdb']);
  // Something is already at the destination: it is never overwritten, the old file stays where it was.
  const c = oldInstallation();
  t.teardown(() => c.store.close());
  mkdirSync(join(c.root, 'demo'), { recursive: true });
  writeFileSync(c.target, 'newer');
  await c.move();
  t.deepEqual([readFileSync(c.target, 'utf8'), readFileSync(c.old, 'utf8'), c.storedPath()], ['newer', 'demo data', 'demo.duckdb']);
});

// Across file systems the move is a copy: /dev/shm is a different one from the temp folder on most Linux machines.
const otherDevice = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tempDir()).dev ? '/dev/shm' : undefined;

test('across file systems the file is copied durably, and a move killed at any instant is finished by the next start', async (t) => {
  if (!otherDevice) {
    t.log('skipped: no second file system (/dev/shm) to move across');
    t.pass();
    return;
  }
  const root = join(otherDevice, `sextant-move-${process.pid}-${Date.now()}`);
  const s = oldInstallation(root);
  t.teardown(() => {
    s.store.close();
    rmSync(root, { recursive: true, force: true });
  });
  const data = Buffer.alloc(32 * 1024 * 1024, 7);
  writeFileSync(s.old, data);
  const child = spawn(process.execPath, [...nodeEntry(new URL('../../helpers/move-demo-child.ts', import.meta.url).pathname), join(s.dir, 'sextant.db'), root], { stdio: 'ignore' });
  // Killed as soon as the copy has begun (or later, if it is faster than we look): any instant must do.
  const partial = `${s.target}.moving`;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 2000 && child.exitCode === null && !existsSync(partial); i++) await new Promise((r) => setTimeout(r, 2));
  t.log(existsSync(partial) ? 'killed during the copy' : 'killed before or after the copy');
  child.kill('SIGKILL');
  await exited;
  await s.move();
  t.false(existsSync(s.old));
  t.false(existsSync(partial));
  t.true(readFileSync(s.target).equals(data));
  t.is(s.storedPath(), 'demo.duckdb');
});

test('an installation of the old layout starts with its demo warehouse in the demo folder, and the old shared path reaches nothing', async (t) => {
  const dataDir = tempDir();
  const config = loadConfig({
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_SEED_DEMO: 'true',
    SEXTANT_DEMO_WAREHOUSE_ORDERS: '300',
    SEXTANT_JWT_SECRET: 'test-jwt-secret-test-jwt-secret-0123456789',
    SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    SEXTANT_COOKIE_KEYS: 'test-cookie-key',
  });
  const clock = new FakeClock();
  const first = await createApp(config, { clock, log: createLogger('silent') });
  const moved = join(dataDir, 'warehouse', 'demo', 'demo.duckdb');
  const old = join(dataDir, 'warehouse', 'demo.duckdb');
  // Back to the layout of an older version: the file in the shared folder, the row holding its absolute
  // path; and an attacker's organization whose connection named the shared file back then.
  let db = first.services.store.sqlite!;
  renameSync(moved, old);
  db.prepare("UPDATE connections SET settings = json_set(settings, '$.path', ?) WHERE org_id = 'demo'").run(old);
  sqliteNow(db, (x) => organizationInsert(x, clock, { id: 'attacker', name: 'Attacker' }));
  const thiefUser = sqliteNow(db, (x) => userInsert(x, clock, { email: 'thief@example.com', name: 'thief', passwordHash: null, emailVerified: true }))[0]!;
  sqliteNow(db, (x) => membershipUpsert(x, clock, { userId: thiefUser.id, orgId: 'attacker', role: 'admin' }));
  db.prepare('INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0)').run(
    'attacker',
    DEMO_CONNECTION_ID,
    'Stolen',
    'duckdb',
    JSON.stringify({ path: old }),
  );
  await first.close();
  // The same data directory, started again.
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  const again = await createApp(config, { clock, log: createLogger('info', sink) });
  t.teardown(() => again.close());
  t.true(existsSync(moved));
  t.false(existsSync(old));
  db = again.services.store.sqlite!;
  const adminId = db.prepare("SELECT user_id FROM memberships WHERE org_id = 'demo' AND role = 'admin'").pluck().get() as string;
  const demoAdmin = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), adminId))!, 'demo', 'session', []))!;
  const query = { environmentId: undefined, connectionId: DEMO_CONNECTION_ID, sql: 'SELECT count(*) FROM orders' };
  t.deepEqual((await executeQuery(again.services.data, { ...query, principal: demoAdmin })).rows, [['300']]);
  const thief = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), thiefUser.id))!, 'attacker', 'session', []))!;
  const err = await t.throwsAsync(executeQuery(again.services.data, { ...query, principal: thief }));
  t.is((err as { code?: string }).code, 'WAREHOUSE_PATH_REFUSED');
  // The operator learns about the attacker's old connection at start.
  t.true(lines.some((l) => l.includes('"connection_id":"demo_warehouse"') && l.includes('"org_id":"attacker"') && l.includes('outside its organization')));
});
