// Start-up on a data directory a crash left behind: damaged branches are restored from their reflog,
// seeding never starts production over, and a branch that cannot be restored is refused, not replaced.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Principal, organizationInsert, userInsert, membershipUpsert } from '../../src/auth/index.ts';
import { sqliteNow } from '../helpers/sqlite-now.ts';
import { FakeClock } from '../../src/clock.ts';
import { checkKnowledgeRepositories, createEnvironment, createItem, createKnowledgeDeps, getItem, listItems, seedKnowledge } from '../../src/knowledge/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/knowledge', import.meta.url));
const seedAuthor = { name: 'Seed', email: 'seed@example.com', timestamp: 1 };

function setup(t: { teardown(fn: () => void): void }) {
  const dataDir = fs.mkdtempSync(join(tmpdir(), 'sextant-startup-'));
  const store = openStore({ file: ':memory:' });
  t.teardown(() => {
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const clock = new FakeClock();
  sqliteNow(store.db, (x) => organizationInsert(x, clock, { id: 'demo', name: 'Demo' }));
  const u = sqliteNow(store.db, (x) => userInsert(x, clock, { email: 'ada@example.com', name: 'Ada' }))[0]!;
  sqliteNow(store.db, (x) => membershipUpsert(x, clock, { userId: u.id, orgId: 'demo', role: 'admin', permissions: ['merge_to_production'] }));
  const p: Principal = { userId: u.id, email: 'ada@example.com', orgId: 'demo', baseOrgId: 'demo', role: 'admin', permissions: ['merge_to_production'], credential: 'session', scopes: [] };
  /** A fresh start of the service on the same data directory. */
  const start = () => createKnowledgeDeps({ store: sqliteExecutor(store.db), clock, log: createLogger('silent'), secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')), dataDir });
  const mainRef = join(dataDir, 'knowledge', 'demo.git', 'refs', 'heads', 'main');
  return { p, start, mainRef, dataDir };
}

test('a production branch emptied by a crash is restored at start-up and the demo knowledge is not seeded over it', async (t) => {
  const { p, start, mainRef } = setup(t);
  const first = start();
  t.true(await seedKnowledge(first, { orgId: 'demo', dir: FIXTURES, author: seedAuthor }));
  const written = await createItem(first, p, undefined, 'notes', { title: 'Acknowledged', body: 'kept' }, 'acknowledged');
  fs.writeFileSync(mainRef, '');

  const again = start();
  const [check] = await checkKnowledgeRepositories(again, { repair: true });
  t.deepEqual(check!.report.refs.map((r) => [r.ref, r.status, r.oid]), [['refs/heads/main', 'recovered', written.commit]]);
  t.false(await seedKnowledge(again, { orgId: 'demo', dir: FIXTURES, author: seedAuthor }));
  t.is((await getItem(again, p, undefined, 'notes', 'acknowledged')).data?.['body'], 'kept');
  t.is((await listItems(again, p, undefined, 'tables')).items.length, 4);
});

test('a production branch that cannot be restored is refused with the repair named, never seeded or written over', async (t) => {
  const { p, start, mainRef, dataDir } = setup(t);
  const first = start();
  await seedKnowledge(first, { orgId: 'demo', dir: FIXTURES, author: seedAuthor });
  fs.writeFileSync(mainRef, '');
  fs.rmSync(join(dataDir, 'knowledge', 'demo.git', 'logs'), { recursive: true });

  const again = start();
  const [check] = await checkKnowledgeRepositories(again, { repair: true });
  t.is(check!.report.refs[0]!.status, 'damaged');
  t.false(await seedKnowledge(again, { orgId: 'demo', dir: FIXTURES, author: seedAuthor }));
  const err = await t.throwsAsync(createItem(again, p, undefined, 'notes', { title: 'New', body: 'x' }));
  t.is((err as { code?: string }).code, 'REPOSITORY_DAMAGED');
  t.regex(err!.message, /knowledge:check/);
  t.is(fs.readFileSync(mainRef, 'utf8'), '');
});

test('production deleted with its reflog is not seeded again: the check reports it and reads and writes answer REPOSITORY_DAMAGED', async (t) => {
  const { p, start, mainRef, dataDir } = setup(t);
  const first = start();
  await seedKnowledge(first, { orgId: 'demo', dir: FIXTURES, author: seedAuthor });
  fs.rmSync(mainRef);
  fs.rmSync(join(dataDir, 'knowledge', 'demo.git', 'logs', 'refs', 'heads', 'main'));

  const again = start();
  const [check] = await checkKnowledgeRepositories(again, { repair: true });
  t.false(check!.report.ok);
  t.like(check!.report.refs[0], { ref: 'refs/heads/main', status: 'damaged' });
  t.false(await seedKnowledge(again, { orgId: 'demo', dir: FIXTURES, author: seedAuthor }));
  t.false(fs.existsSync(mainRef));
  for (const attempt of [listItems(again, p, undefined, 'notes'), getItem(again, p, undefined, 'tables', 'x/y.z'), createItem(again, p, undefined, 'notes', { title: 'New', body: 'x' })]) {
    t.is(((await t.throwsAsync(attempt)) as { code?: string }).code, 'REPOSITORY_DAMAGED');
  }
  t.is(((await t.throwsAsync(createEnvironment(again, p, { name: 'After', color: '#00ff00' }))) as { code?: string }).code, 'REPOSITORY_DAMAGED');
  t.false(fs.existsSync(mainRef));
});

test('a repository folder missing while the database lists the organization and its environments is reported, and neither seeded nor made anew', async (t) => {
  const { p, start, dataDir } = setup(t);
  const first = start();
  await createItem(first, p, undefined, 'notes', { title: 'First', body: 'x' }, 'first');
  const env = await createEnvironment(first, p, { name: 'Kept', color: '#00ff00' });
  const gitdir = join(dataDir, 'knowledge', 'demo.git');
  fs.rmSync(gitdir, { recursive: true });

  const again = start();
  const checks = await checkKnowledgeRepositories(again, { repair: true });
  t.deepEqual(checks.map((c) => [c.orgId, c.report.ok]), [['demo', false]]);
  t.regex(checks[0]!.report.refs[0]!.problem!, /folder is missing/);
  t.false(await seedKnowledge(again, { orgId: 'demo', dir: FIXTURES, author: seedAuthor }));
  t.is(((await t.throwsAsync(listItems(again, p, undefined, 'notes'))) as { code?: string }).code, 'REPOSITORY_DAMAGED');
  t.is(((await t.throwsAsync(createItem(again, p, undefined, 'notes', { title: 'New', body: 'x' }))) as { code?: string }).code, 'REPOSITORY_DAMAGED');
  t.false(fs.existsSync(gitdir));

  // An empty folder put in its place: production and the environment's branch are both reported missing.
  fs.mkdirSync(gitdir, { recursive: true });
  const [later] = await checkKnowledgeRepositories(start(), { repair: true });
  t.deepEqual(later!.report.refs.map((r) => [r.ref, r.status]), [['refs/heads/main', 'damaged'], [`refs/heads/env/${env.id}`, 'damaged']]);
});

test('npm run knowledge:check reports a damaged branch with exit status 1, and --repair restores it from the reflog', async (t) => {
  const { p, start, mainRef, dataDir } = setup(t);
  const first = start();
  await seedKnowledge(first, { orgId: 'demo', dir: FIXTURES, author: seedAuthor });
  const written = await createItem(first, p, undefined, 'notes', { title: 'Kept', body: 'kept' }, 'kept');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const check = (...args: string[]) =>
    spawnSync(process.execPath, [...nodeEntry(join(root, 'src', 'knowledge-check.ts')), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'silent' } });
  const clean = check();
  t.is(clean.status, 0, clean.stdout + clean.stderr);
  t.regex(clean.stdout, /^demo: ok \(\d+ objects checked; git fsck: ok\)/m);
  fs.writeFileSync(mainRef, '');
  const damaged = check();
  t.is(damaged.status, 1);
  t.regex(damaged.stdout, /refs\/heads\/main: damaged \(its file is empty\)/);
  const repaired = check('--repair');
  t.is(repaired.status, 0, repaired.stdout);
  t.regex(repaired.stdout, new RegExp(`refs/heads/main: recovered \\(its file is empty\\) -> ${written.commit}`));
  t.is(fs.readFileSync(mainRef, 'utf8').trim(), written.commit);
});

test('npm run knowledge:check --json reports an organization whose repository git fsck finds fault with as not ok', async (t) => {
  const { dataDir, start } = setup(t);
  await seedKnowledge(start(), { orgId: 'demo', dir: FIXTURES, author: seedAuthor });
  // A corrupt loose object no branch reaches: the service's check does not read it, git fsck does.
  const dir = join(dataDir, 'knowledge', 'demo.git', 'objects', 'ab');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(join(dir, 'c'.repeat(38)), 'not an object');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const run = spawnSync(process.execPath, [...nodeEntry(join(root, 'src', 'knowledge-check.ts')), '--json'], { cwd: root, encoding: 'utf8', env: { ...process.env, SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'silent' } });
  const [demo] = JSON.parse(run.stdout) as { org_id: string; ok: boolean; git_fsck: string }[];
  if (demo!.git_fsck === 'git not installed') return t.pass('git is not installed');
  t.is(run.status, 1);
  t.is(demo!.org_id, 'demo');
  t.false(demo!.ok);
  t.not(demo!.git_fsck, 'ok');
});
