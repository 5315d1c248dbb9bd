import test from 'ava';
import { createFsFromVolume, Volume } from 'memfs';
import type { FsClient } from 'isomorphic-git';
import {
  commitChanges,
  createBranch,
  deleteBranch,
  diffRefs,
  history,
  listBranches,
  mergeBranch,
  openRepo,
  readFile,
  readTree,
  resolveRef,
  type GitRepo,
} from '../../src/git/index.ts';

const author = (name = 'Ada') => ({ name, email: `${name.toLowerCase()}@example.com`, timestamp: 1_700_000_000 });

async function memRepo(): Promise<GitRepo> {
  const fs = createFsFromVolume(new Volume()) as unknown as FsClient;
  return openRepo({ fs, gitdir: '/org.git' });
}

async function seeded(): Promise<GitRepo> {
  const repo = await memRepo();
  await commitChanges({
    repo,
    branch: 'main',
    author: author(),
    message: 'first',
    changes: [
      { path: 'notes/a.yaml', content: 'title: A\n' },
      { path: 'notes/b.yaml', content: 'title: B\n' },
      { path: 'tables/wh/main.orders.yaml', content: 'name: orders\n' },
      { path: 'README.md', content: 'hello\n' },
    ],
  });
  return repo;
}

test('a commit writes files that read back at the branch and at the commit', async (t) => {
  const repo = await seeded();
  const oid = (await resolveRef({ repo, ref: 'main' }))!;
  t.is(await readFile({ repo, ref: 'main', path: 'notes/a.yaml' }), 'title: A\n');
  t.is(await readFile({ repo, ref: oid, path: 'tables/wh/main.orders.yaml' }), 'name: orders\n');
  t.is(await readFile({ repo, ref: 'main', path: 'notes/missing.yaml' }), undefined);
  t.is(await readFile({ repo, ref: 'nope', path: 'notes/a.yaml' }), undefined);
  t.deepEqual(
    (await readTree({ repo, ref: 'main', prefix: 'notes' })).map((f) => f.path),
    ['notes/a.yaml', 'notes/b.yaml'],
  );
  t.is((await readTree({ repo, ref: 'main' })).length, 4);
  t.deepEqual(await readTree({ repo, ref: 'main', prefix: 'skills' }), []);
});

test('a commit that changes nothing writes no commit, and deleting the last file of a folder removes it', async (t) => {
  const repo = await seeded();
  const before = (await resolveRef({ repo, ref: 'main' }))!;
  const same = await commitChanges({ repo, branch: 'main', author: author(), message: 'noop', changes: [{ path: 'notes/a.yaml', content: 'title: A\n' }] });
  t.false(same.changed);
  t.is(same.oid, before);
  await commitChanges({ repo, branch: 'main', author: author(), message: 'rm', changes: [{ path: 'tables/wh/main.orders.yaml', content: null }] });
  t.deepEqual(
    (await readTree({ repo, ref: 'main' })).map((f) => f.path),
    ['README.md', 'notes/a.yaml', 'notes/b.yaml'],
  );
});

test('commits record the acting author and appear in the history of the file they touched', async (t) => {
  const repo = await seeded();
  await commitChanges({ repo, branch: 'main', author: author('Max'), message: 'edit a', changes: [{ path: 'notes/a.yaml', content: 'title: A2\n' }] });
  await commitChanges({ repo, branch: 'main', author: author('Ana'), message: 'edit b', changes: [{ path: 'notes/b.yaml', content: 'title: B2\n' }] });
  const h = await history({ repo, ref: 'main', path: 'notes/a.yaml' });
  t.deepEqual(
    h.map((c) => [c.message, c.author.name]),
    [
      ['edit a', 'Max'],
      ['first', 'Ada'],
    ],
  );
  t.is((await history({ repo, ref: 'main' })).length, 3);
});

test('branches are created, listed and deleted', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env/x', from: 'main' });
  t.deepEqual((await listBranches({ repo })).sort(), ['env/x', 'main']);
  await t.throwsAsync(createBranch({ repo, branch: 'env/x', from: 'main' }), { code: 'BRANCH_EXISTS' });
  await t.throwsAsync(createBranch({ repo, branch: 'env/y', from: 'nope' }), { code: 'BRANCH_NOT_FOUND' });
  await deleteBranch({ repo, branch: 'env/x' });
  t.deepEqual(await listBranches({ repo }), ['main']);
});

test('diffRefs lists added, modified and deleted files', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env', from: 'main' });
  await commitChanges({
    repo,
    branch: 'env',
    author: author(),
    message: 'change',
    changes: [
      { path: 'notes/a.yaml', content: 'title: changed\n' },
      { path: 'notes/b.yaml', content: null },
      { path: 'skills/s.yaml', content: 'name: s\n' },
    ],
  });
  t.deepEqual(await diffRefs({ repo, from: 'main', to: 'env' }), [
    { path: 'notes/a.yaml', status: 'modified' },
    { path: 'notes/b.yaml', status: 'deleted' },
    { path: 'skills/s.yaml', status: 'added' },
  ]);
  t.deepEqual(await diffRefs({ repo, from: 'main', to: 'main' }), []);
});

test('a merge fast-forwards, and a dry run moves no ref', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env', from: 'main' });
  const envOid = (await commitChanges({ repo, branch: 'env', author: author(), message: 'c', changes: [{ path: 'notes/c.yaml', content: 'c\n' }] })).oid;
  const mainBefore = await resolveRef({ repo, ref: 'main' });
  const dry = await mergeBranch({ repo, from: 'env', into: 'main', author: author(), dryRun: true });
  t.is(dry.status, 'fast_forward');
  t.is(await resolveRef({ repo, ref: 'main' }), mainBefore);
  const real = await mergeBranch({ repo, from: 'env', into: 'main', author: author() });
  t.deepEqual(real, { status: 'fast_forward', oid: envOid });
  t.is(await resolveRef({ repo, ref: 'main' }), envOid);
  t.is((await mergeBranch({ repo, from: 'env', into: 'main', author: author() })).status, 'up_to_date');
});

test('diverged branches merge with a merge commit that has both parents', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env', from: 'main' });
  const e = await commitChanges({ repo, branch: 'env', author: author(), message: 'env', changes: [{ path: 'notes/a.yaml', content: 'title: env\n' }] });
  const m = await commitChanges({ repo, branch: 'main', author: author(), message: 'main', changes: [{ path: 'notes/b.yaml', content: 'title: main\n' }] });
  const dry = await mergeBranch({ repo, from: 'env', into: 'main', author: author(), dryRun: true });
  t.is(dry.status, 'merged');
  t.is(await resolveRef({ repo, ref: 'main' }), m.oid);
  const out = await mergeBranch({ repo, from: 'env', into: 'main', author: author('Max'), message: 'Merge env' });
  t.is(out.status, 'merged');
  const [head] = await history({ repo, ref: 'main', depth: 1 });
  t.deepEqual(head?.parents, [m.oid, e.oid]);
  t.is(head?.author.name, 'Max');
  t.is(await readFile({ repo, ref: 'main', path: 'notes/a.yaml' }), 'title: env\n');
  t.is(await readFile({ repo, ref: 'main', path: 'notes/b.yaml' }), 'title: main\n');
});

test('conflicts are predicted by a dry run and then met by the merge, which leaves the branch as it was', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env', from: 'main' });
  await commitChanges({ repo, branch: 'env', author: author(), message: 'env', changes: [{ path: 'notes/a.yaml', content: 'title: env\n' }, { path: 'notes/b.yaml', content: null }] });
  const m = await commitChanges({ repo, branch: 'main', author: author(), message: 'main', changes: [{ path: 'notes/a.yaml', content: 'title: main\n' }, { path: 'notes/b.yaml', content: 'title: B changed\n' }] });
  const predicted = await mergeBranch({ repo, from: 'env', into: 'main', author: author(), dryRun: true });
  t.deepEqual(predicted, { status: 'conflict', conflicts: ['notes/a.yaml', 'notes/b.yaml'] });
  const met = await mergeBranch({ repo, from: 'env', into: 'main', author: author() });
  t.deepEqual(met, predicted);
  t.is(await resolveRef({ repo, ref: 'main' }), m.oid);
  // The repository stays usable: a later merge in the other direction still works.
  t.is((await mergeBranch({ repo, from: 'main', into: 'env', author: author(), dryRun: true })).status, 'conflict');
});

test('resolutions settle conflicting files (ours, theirs, given content, deletion) in one merge commit of both tips', async (t) => {
  const repo = await seeded();
  const lines = (a: string, z: string) => `a: ${a}\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\nz: ${z}\n`;
  await commitChanges({ repo, branch: 'main', author: author(), message: 'x', changes: [{ path: 'notes/x.yaml', content: lines('1', '1') }] });
  await createBranch({ repo, branch: 'env', from: 'main' });
  const edit = (branch: string, side: string) => [
    { path: 'notes/a.yaml', content: `title: ${side}\n` },
    { path: 'notes/b.yaml', content: side === 'env' ? null : 'title: B main\n' },
    { path: 'tables/wh/main.orders.yaml', content: `name: orders ${side}\n` },
    { path: 'notes/x.yaml', content: side === 'env' ? lines('env', '1') : lines('1', 'main') },
    { path: `notes/only-${branch}.yaml`, content: 'x\n' },
  ];
  const e = await commitChanges({ repo, branch: 'env', author: author(), message: 'env', changes: edit('env', 'env') });
  const m = await commitChanges({ repo, branch: 'main', author: author(), message: 'main', changes: edit('main', 'main') });
  t.deepEqual(await mergeBranch({ repo, from: 'main', into: 'env', author: author(), dryRun: true }), { status: 'conflict', conflicts: ['notes/a.yaml', 'notes/b.yaml', 'tables/wh/main.orders.yaml'] });
  const partial = await mergeBranch({ repo, from: 'main', into: 'env', author: author(), resolutions: [{ path: 'notes/a.yaml', take: 'theirs' }] });
  t.deepEqual(partial, { status: 'conflict', conflicts: ['notes/b.yaml', 'tables/wh/main.orders.yaml'] }, 'what is left unresolved comes back');
  t.is(await resolveRef({ repo, ref: 'env' }), e.oid);
  const resolutions = [
    { path: 'notes/a.yaml', take: 'theirs' as const },
    { path: 'notes/b.yaml', take: 'ours' as const },
    { path: 'tables/wh/main.orders.yaml', content: 'name: orders both\n' },
  ];
  const dry = await mergeBranch({ repo, from: 'main', into: 'env', author: author(), resolutions, dryRun: true });
  t.is(dry.status, 'merged');
  t.is(await resolveRef({ repo, ref: 'env' }), e.oid, 'a dry run moves no ref');
  const out = await mergeBranch({ repo, from: 'main', into: 'env', author: author('Max'), message: 'Update', resolutions });
  t.is(out.status, 'merged');
  const tip = await resolveRef({ repo, ref: 'env' });
  t.is(out.status === 'merged' ? out.oid : undefined, tip);
  t.deepEqual((await history({ repo, ref: 'env', depth: 1 }))[0]?.parents, [e.oid, m.oid]);
  t.is(await readFile({ repo, ref: 'env', path: 'notes/a.yaml' }), 'title: main\n');
  t.is(await readFile({ repo, ref: 'env', path: 'notes/b.yaml' }), undefined);
  t.is(await readFile({ repo, ref: 'env', path: 'tables/wh/main.orders.yaml' }), 'name: orders both\n');
  t.is(await readFile({ repo, ref: 'env', path: 'notes/x.yaml' }), lines('env', 'main'), 'other files merge as usual');
  t.is(await readFile({ repo, ref: 'env', path: 'notes/only-main.yaml' }), 'x\n');
  t.is(await readFile({ repo, ref: 'env', path: 'notes/only-env.yaml' }), 'x\n');
  t.is((await mergeBranch({ repo, from: 'env', into: 'main', author: author(), dryRun: true })).status, 'fast_forward', 'the branch now merges back without conflict');
});

test('twenty concurrent commits to one branch are all kept', async (t) => {
  const repo = await seeded();
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      commitChanges({ repo, branch: 'main', author: author(), message: `c${i}`, changes: [{ path: `notes/n${i}.yaml`, content: `n: ${i}\n` }] }),
    ),
  );
  const files = (await readTree({ repo, ref: 'main', prefix: 'notes' })).map((f) => f.path);
  for (let i = 0; i < 20; i++) t.true(files.includes(`notes/n${i}.yaml`));
  t.is((await history({ repo, ref: 'main' })).length, 21);
});

test('concurrent merges and commits into one branch lose nothing', async (t) => {
  const repo = await seeded();
  for (const b of ['e1', 'e2', 'e3']) {
    await createBranch({ repo, branch: b, from: 'main' });
    await commitChanges({ repo, branch: b, author: author(), message: b, changes: [{ path: `notes/${b}.yaml`, content: `${b}\n` }] });
  }
  await Promise.all([
    mergeBranch({ repo, from: 'e1', into: 'main', author: author() }),
    mergeBranch({ repo, from: 'e2', into: 'main', author: author() }),
    commitChanges({ repo, branch: 'main', author: author(), message: 'direct', changes: [{ path: 'notes/direct.yaml', content: 'd\n' }] }),
    mergeBranch({ repo, from: 'e3', into: 'main', author: author() }),
  ]);
  const files = (await readTree({ repo, ref: 'main', prefix: 'notes' })).map((f) => f.path);
  for (const f of ['e1', 'e2', 'e3', 'direct']) t.true(files.includes(`notes/${f}.yaml`), f);
});

test('edits to different lines of one file on both sides merge cleanly through the full merge', async (t) => {
  const repo = await memRepo();
  const lines = (a: string, z: string) => `a: ${a}\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\nz: ${z}\n`;
  await commitChanges({ repo, branch: 'main', author: author(), message: 'base', changes: [{ path: 'notes/x.yaml', content: lines('1', '1') }] });
  await createBranch({ repo, branch: 'env', from: 'main' });
  await commitChanges({ repo, branch: 'env', author: author(), message: 'top', changes: [{ path: 'notes/x.yaml', content: lines('env', '1') }] });
  await commitChanges({ repo, branch: 'main', author: author(), message: 'bottom', changes: [{ path: 'notes/x.yaml', content: lines('1', 'main') }] });
  t.is((await mergeBranch({ repo, from: 'env', into: 'main', author: author(), dryRun: true })).status, 'merged');
  t.is((await mergeBranch({ repo, from: 'env', into: 'main', author: author() })).status, 'merged');
  t.is(await readFile({ repo, ref: 'main', path: 'notes/x.yaml' }), lines('env', 'main'));
});

test('deletions and additions on both sides merge by the pruned tree merge', async (t) => {
  const repo = await seeded();
  await createBranch({ repo, branch: 'env', from: 'main' });
  await commitChanges({ repo, branch: 'env', author: author(), message: 'env', changes: [{ path: 'notes/a.yaml', content: null }, { path: 'skills/s.yaml', content: 's\n' }, { path: 'README.md', content: 'env readme\n' }] });
  await commitChanges({ repo, branch: 'main', author: author(), message: 'main', changes: [{ path: 'notes/a.yaml', content: null }, { path: 'notes/b.yaml', content: null }, { path: 'reports/r.yaml', content: 'r\n' }] });
  const out = await mergeBranch({ repo, from: 'env', into: 'main', author: author() });
  t.is(out.status, 'merged');
  t.deepEqual(
    (await readTree({ repo, ref: 'main' })).map((f) => f.path),
    ['README.md', 'reports/r.yaml', 'skills/s.yaml', 'tables/wh/main.orders.yaml'],
  );
  t.is(await readFile({ repo, ref: 'main', path: 'README.md' }), 'env readme\n');
  t.deepEqual(await diffRefs({ repo, from: 'env', to: 'main' }), [
    { path: 'notes/b.yaml', status: 'deleted' },
    { path: 'reports/r.yaml', status: 'added' },
  ]);
});

test('a branch tip is read from disk once, then from memory, and follows commits, merges, creation and deletion', async (t) => {
  const vol = new Volume();
  const inner = createFsFromVolume(vol) as unknown as { promises: Record<string, (...a: unknown[]) => Promise<unknown>> };
  let refReads = 0;
  const promises = new Proxy(inner.promises, {
    get: (target, key) =>
      key === 'readFile'
        ? (path: string, ...rest: unknown[]) => {
            if (String(path).includes('/refs/') || String(path).endsWith('packed-refs')) refReads++;
            return target['readFile']!(path, ...rest);
          }
        : target[key as string],
  });
  const fs = { promises } as unknown as FsClient;
  const repo = await openRepo({ fs, gitdir: '/org.git' });
  const resolveAll = async (r: GitRepo) => Promise.all([resolveRef({ repo: r, ref: 'main' }), resolveRef({ repo: r, ref: 'env' })]);
  const first = await commitChanges({ repo, branch: 'main', author: author(), message: 'one', changes: [{ path: 'notes/a.yaml', content: 'a: 1\n' }] });
  await createBranch({ repo, branch: 'env', from: 'main' });
  refReads = 0;
  for (let i = 0; i < 3; i++) t.deepEqual(await resolveAll(repo), [first.oid, first.oid]);
  t.is(refReads, 0, 'tips written here are known without reading');

  const second = await commitChanges({ repo, branch: 'env', author: author(), message: 'two', changes: [{ path: 'notes/b.yaml', content: 'b: 1\n' }] });
  t.deepEqual(await resolveAll(repo), [first.oid, second.oid]);
  await mergeBranch({ repo, from: 'env', into: 'main', author: author(), message: 'merge' });
  t.deepEqual(await resolveAll(repo), [second.oid, second.oid]);
  await deleteBranch({ repo, branch: 'env' });
  refReads = 0;
  t.deepEqual(await resolveAll(repo), [second.oid, undefined]);
  t.is(refReads, 0);

  // A fresh handle on the same repository reads each tip (present or not) once.
  const again = await openRepo({ fs, gitdir: '/org.git' });
  refReads = 0;
  t.deepEqual(await resolveAll(again), [second.oid, undefined]);
  const once = refReads;
  t.true(once > 0);
  t.deepEqual(await resolveAll(again), [second.oid, undefined]);
  t.is(refReads, once);
});
