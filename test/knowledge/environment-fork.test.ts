// Creating an environment forks a branch and then inserts its row: when the insert fails, the branch
// goes too, so no orphan `env/<id>` branch is left in the organization's repository.
import test from 'ava';
import type { FsClient } from 'isomorphic-git';
import { sql } from 'kysely';
import { createFsFromVolume, Volume } from 'memfs';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { listBranches } from '../../src/git/index.ts';
import { createEnvironment, createKnowledgeDeps, listEnvironments } from '../../src/knowledge/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { compile, type Executor, type Query } from '../../src/store/executor.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';

const admin: Principal = { userId: 'u1', email: 'ada@example.com', orgId: 'acme', baseOrgId: 'acme', role: 'admin', permissions: ['merge_to_production'], credential: 'session', scopes: [] };

/** The store, except that inserting an environment row fails while `refuse.on` is set (a database that went away). */
function refusingInserts(x: Executor, refuse: { on: boolean }): Executor {
  const refused = (q: Query) => refuse.on && /insert into "?environments"?\b/i.test(compile(x.db, q).sql);
  const fail = () => Promise.reject(new Error('the database went away'));
  return {
    db: x.db,
    one: (q) => (refused(q) ? fail() : x.one(q)),
    all: (q) => (refused(q) ? fail() : x.all(q)),
    run: (q) => (refused(q) ? fail() : x.run(q)),
    batch: (qs, o) => (qs.some(refused) ? fail() : x.batch(qs, o)),
  };
}

test('a failed environment insert leaves no orphan branch behind, and the next create works', async (t) => {
  const store = openStore({ file: ':memory:' });
  t.teardown(() => store.close());
  const x = sqliteExecutor(store.db);
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'ada@example.com', 0)`);
  const refuse = { on: true };
  const deps = createKnowledgeDeps({
    store: refusingInserts(x, refuse),
    clock: new FakeClock(),
    log: createLogger('silent'),
    secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')),
    dataDir: '/data',
    fs: createFsFromVolume(new Volume()) as unknown as FsClient,
  });
  await t.throwsAsync(createEnvironment(deps, admin, { name: 'Dev', color: '#123456' }), { message: 'the database went away' });
  const repo = await deps.repos.repo('acme');
  t.deepEqual(await listBranches({ repo }), ['main'], 'only production remains');
  t.deepEqual((await listEnvironments(deps, admin)).map((e) => e.name), []);

  refuse.on = false;
  const env = await createEnvironment(deps, admin, { name: 'Dev', color: '#123456' });
  t.deepEqual((await listBranches({ repo })).toSorted(), ['main', `env/${env.id}`].toSorted());
});
