// What a crash or a second writer can leave behind, on real repositories on disk, checked by git itself.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type FsClient } from 'isomorphic-git';
import {
  BranchMoved,
  checkRepo,
  commitChanges,
  createBranch,
  InvalidPath,
  loopFs,
  mergeBranch,
  openRepo,
  readFile,
  readReflog,
  RefDamaged,
  RefLocked,
  STALE_OBJECT_TMP_MS,
  resolveRef,
  type GitRepo,
} from '../../src/git/index.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };
/** The file system the service writes repositories with (loop-fs.ts). */
const serviceFs = loopFs() as unknown as FsClient;

async function diskRepo(t: { teardown(fn: () => void): void }): Promise<{ repo: GitRepo; gitdir: string; reopen(): Promise<GitRepo> }> {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-git-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  const reopen = () => openRepo({ fs: serviceFs, gitdir });
  return { repo: await reopen(), gitdir, reopen };
}

const write = (repo: GitRepo, path: string, content: string | null, branch = 'main') => commitChanges({ repo, branch, author, message: `write ${path}`, changes: [{ path, content }] });
const objectFile = (gitdir: string, oid: string) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
function fsck(gitdir: string): { status: number | null; out: string } {
  const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

for (const [name, damage] of [
  ['zero-length', (f: string) => fs.writeFileSync(f, '')],
  ['torn', (f: string) => fs.writeFileSync(f, fs.readFileSync(f).subarray(0, 5))],
] as const) {
  test(`a ${name} object left by a crash is written again, not trusted, when the same content comes back`, async (t) => {
    const { repo, gitdir } = await diskRepo(t);
    await write(repo, 'notes/a.yaml', 'title: A\n');
    const { oid } = await git.hashBlob({ object: 'title: A\n' });
    await write(repo, 'notes/a.yaml', null);
    fs.chmodSync(objectFile(gitdir, oid), 0o644);
    damage(objectFile(gitdir, oid));
    await write(repo, 'notes/b.yaml', 'title: A\n');
    t.is(await readFile({ repo, ref: 'main', path: 'notes/b.yaml' }), 'title: A\n');
    t.deepEqual(fsck(gitdir), { status: 0, out: '' });
  });
}

test('an empty ref is never taken for a missing branch, and the start-up check restores it from the reflog', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  const last = (await write(repo, 'notes/b.yaml', 'b: 1\n')).oid;
  fs.writeFileSync(join(gitdir, 'refs', 'heads', 'main'), '');
  const after = await reopen();
  await t.throwsAsync(resolveRef({ repo: after, ref: 'main' }), { instanceOf: RefDamaged, code: 'REPOSITORY_DAMAGED' });
  await t.throwsAsync(write(after, 'notes/c.yaml', 'c: 1\n'), { instanceOf: RefDamaged });
  const report = await checkRepo({ repo: after, repair: true });
  t.deepEqual(report.refs, [{ ref: 'refs/heads/main', status: 'recovered', oid: last, problem: 'its file is empty' }]);
  t.is(await resolveRef({ repo: after, ref: 'main' }), last);
  t.is(await readFile({ repo: after, ref: 'main', path: 'notes/b.yaml' }), 'b: 1\n');
  t.deepEqual(fsck(gitdir), { status: 0, out: '' });
  t.regex((await readReflog(after, 'refs/heads/main')).at(-1)!.message, /^recover: its file is empty/);
});

test('a ref whose commit is unreadable goes back to the newest reflog entry whose whole tree reads', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  const good = (await write(repo, 'notes/a.yaml', 'a: 1\n')).oid;
  await write(repo, 'notes/b.yaml', 'b: 2\n');
  // The newest commit's blob is lost: that commit's tree no longer reads back.
  fs.rmSync(objectFile(gitdir, (await git.hashBlob({ object: 'b: 2\n' })).oid), { force: true });
  const after = await reopen();
  const report = await checkRepo({ repo: after, repair: true, full: true });
  t.is(report.refs[0]!.status, 'ok', 'the commit and root tree still read');
  t.true(report.objects!.errors.some((e) => e.startsWith('blob notes/b.yaml')));
  t.false(report.ok);
  fs.rmSync(objectFile(gitdir, (await resolveRef({ repo: after, ref: 'main' }))!), { force: true });
  const again = await checkRepo({ repo: await reopen(), repair: true });
  t.is(again.refs[0]!.status, 'recovered');
  t.is(again.refs[0]!.oid, good);
});

test('a branch with no usable reflog entry is reported damaged and left for an operator', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  fs.writeFileSync(join(gitdir, 'refs', 'heads', 'main'), 'garbage');
  fs.rmSync(join(gitdir, 'logs'), { recursive: true });
  const report = await checkRepo({ repo: await reopen(), repair: true });
  t.deepEqual(report.refs, [{ ref: 'refs/heads/main', status: 'damaged', oid: null, problem: 'its file does not hold a commit id' }]);
  t.false(report.ok);
  t.is(fs.readFileSync(join(gitdir, 'refs', 'heads', 'main'), 'utf8'), 'garbage');
});

test('a stale lock file refuses writes until the start-up check removes it with the temporary files a crash left', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  const first = await write(repo, 'notes/a.yaml', 'a: 1\n');
  fs.writeFileSync(join(gitdir, 'refs', 'heads', 'main.lock'), '');
  const leftover = join(gitdir, 'objects', first.oid.slice(0, 2), 'tmp_obj_1_x_0');
  fs.writeFileSync(leftover, 'half');
  const longAgo = new Date(Date.now() - STALE_OBJECT_TMP_MS);
  fs.utimesSync(leftover, longAgo, longAgo);
  await t.throwsAsync(write(repo, 'notes/b.yaml', 'b: 1\n'), { instanceOf: RefLocked });
  t.is(await resolveRef({ repo: await reopen(), ref: 'main' }), first.oid);
  const report = await checkRepo({ repo, repair: true });
  t.deepEqual(report.removed.sort(), [`objects/${first.oid.slice(0, 2)}/tmp_obj_1_x_0`, 'refs/heads/main.lock']);
  t.true((await write(repo, 'notes/b.yaml', 'b: 1\n')).changed);
  t.deepEqual(fsck(gitdir), { status: 0, out: '' });
});

test('a fresh temporary object file is left by the start-up check: on a shared folder it may be the pending merge of another replica', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  const first = await write(repo, 'notes/a.yaml', 'a: 1\n');
  const pending = join(gitdir, 'objects', first.oid.slice(0, 2), 'tmp_obj_2_y_0');
  fs.writeFileSync(pending, 'being written');
  const report = await checkRepo({ repo, repair: true });
  t.deepEqual(report.removed, []);
  t.is(fs.readFileSync(pending, 'utf8'), 'being written');
  t.true(report.ok);
});

test('a second writer whose idea of the branch is stale reads the moved tip under the lock and commits on top, so the first write stays', async (t) => {
  const { repo, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  const other = await reopen();
  t.truthy(await resolveRef({ repo: other, ref: 'main' }));
  const mine = await write(repo, 'notes/mine.yaml', 'mine\n');
  const theirs = await write(other, 'notes/theirs.yaml', 'theirs\n');
  const fresh = await reopen();
  t.is(await resolveRef({ repo: fresh, ref: 'main' }), theirs.oid);
  t.deepEqual((await git.readCommit({ fs: fresh.fs, gitdir: fresh.gitdir, oid: theirs.oid })).commit.parent, [mine.oid]);
  t.is(await readFile({ repo: fresh, ref: 'main', path: 'notes/mine.yaml' }), 'mine\n');
});

test('a branch moved between a writer reading it and moving it is refused (compare-and-swap), and the other write stays', async (t) => {
  const { repo, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  // Two handles without a shared lock stand for writers that bypass it: the second moves the branch
  // while the first is between reading the tip and moving it.
  const other = await reopen();
  let mine: { oid: string } | undefined;
  const racing = commitChanges({
    repo: other,
    branch: 'main',
    author,
    message: 'theirs',
    changes: async () => {
      mine = await write(repo, 'notes/mine.yaml', 'mine\n');
      return [{ path: 'notes/theirs.yaml', content: 'theirs\n' }];
    },
  });
  await t.throwsAsync(racing, { instanceOf: BranchMoved });
  const fresh = await reopen();
  t.is(await resolveRef({ repo: fresh, ref: 'main' }), mine!.oid);
  t.is(await readFile({ repo: fresh, ref: 'main', path: 'notes/theirs.yaml' }), undefined);
});

test('a resolved merge that fails midway leaves the branch as it was, and the same merge works afterwards', async (t) => {
  const { gitdir, reopen } = await diskRepo(t);
  const setup = await reopen();
  await write(setup, 'notes/a.yaml', 'a: base\n');
  await createBranch({ repo: setup, branch: 'env', from: 'main' });
  const before = (await write(setup, 'notes/a.yaml', 'a: env\n', 'env')).oid;
  await write(setup, 'notes/a.yaml', 'a: main\n');
  // The process fails as the branch is about to move: every object is written, the ref is not.
  let armed = true;
  const promises = new Proxy(fs.promises, {
    get(target, name, receiver) {
      const real = Reflect.get(target, name, receiver) as (...args: unknown[]) => unknown;
      if (name !== 'rename') return typeof real === 'function' ? real.bind(target) : real;
      return async (from: string, to: string) => {
        if (armed && to === join(gitdir, 'refs', 'heads', 'env')) throw new Error('the process died');
        return fs.promises.rename(from, to);
      };
    },
  });
  const failing = await openRepo({ fs: { promises } as unknown as FsClient, gitdir });
  const resolutions = [{ path: 'notes/a.yaml', content: 'a: both\n' }];
  await t.throwsAsync(mergeBranch({ repo: failing, from: 'main', into: 'env', author, resolutions }), { message: 'the process died' });
  const fresh = await reopen();
  t.is(await resolveRef({ repo: fresh, ref: 'env' }), before);
  t.is(await readFile({ repo: fresh, ref: 'env', path: 'notes/a.yaml' }), 'a: env\n');
  t.deepEqual(fsck(gitdir), { status: 0, out: '' });
  armed = false;
  t.is((await mergeBranch({ repo: fresh, from: 'main', into: 'env', author, resolutions })).status, 'merged');
  t.is(await readFile({ repo: fresh, ref: 'env', path: 'notes/a.yaml' }), 'a: both\n');
});

test('every move of a branch is in its reflog with who moved it and why, merges included', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  await createBranch({ repo, branch: 'env/x', from: 'main', author: { ...author, name: 'Max' } });
  await write(repo, 'notes/b.yaml', 'b: 1\n', 'env/x');
  await mergeBranch({ repo, from: 'env/x', into: 'main', author: { ...author, name: 'Merger' } });
  const log = await readReflog(repo, 'refs/heads/main');
  t.deepEqual(log.map((e) => [e.name, e.message]), [
    ['Ada', 'commit: write notes/a.yaml'],
    ['Merger', 'merge env/x: Fast-forward'],
  ]);
  t.is(log[1]!.old, log[0]!.new);
  t.deepEqual((await readReflog(repo, 'refs/heads/env/x')).map((e) => e.name), ['Max', 'Ada']);
  const gitLog = spawnSync('git', ['--git-dir', gitdir, 'reflog', 'show', '--format=%gs', 'main'], { encoding: 'utf8' });
  t.deepEqual(gitLog.stdout.trim().split('\n'), ['merge env/x: Fast-forward', 'commit: write notes/a.yaml']);
});

const HOSTILE: [string, string][] = [
  ['NUL', 'notes/a\u0000b.yaml'],
  ['newline', 'notes/a\nb.yaml'],
  ['escape', 'notes/\u001b[31m.yaml'],
  ['dot', 'notes/./a.yaml'],
  ['dot-dot', 'notes/../a.yaml'],
  ['empty segment', 'notes//a.yaml'],
  ['.git', '.git/config'],
  ['.GIT in a folder', 'notes/.GIT/x.yaml'],
  ['.git with an invisible character', 'notes/.g\u200cit/x'],
  ['NTFS short name of .git', 'GIT~1/x'],
  ['Windows device name', 'notes/con.yaml'],
  ['Windows device name with extensions', 'tables/wh/aux.orders.yaml'],
  ['trailing dot', 'notes/a.'],
  ['trailing space', 'notes/a.yaml '],
  ['backslash', 'notes/a\\b.yaml'],
  ['decomposed Unicode', 'notes/cafe\u0301.yaml'],
  ['a name over 255 bytes', `notes/${'é'.repeat(130)}.yaml`],
];
for (const [what, path] of HOSTILE) {
  test(`a path with ${what} is refused before anything is written`, async (t) => {
    const { repo, gitdir } = await diskRepo(t);
    const before = (await write(repo, 'notes/ok.yaml', 'ok\n')).oid;
    const objects = () => spawnSync('git', ['--git-dir', gitdir, 'count-objects'], { encoding: 'utf8' }).stdout;
    const count = objects();
    const err = await t.throwsAsync(write(repo, path, 'x\n'), { instanceOf: InvalidPath });
    t.is(err?.code, 'INVALID_PATH');
    t.is(await resolveRef({ repo, ref: 'main' }), before);
    t.is(objects(), count);
    t.deepEqual(fsck(gitdir), { status: 0, out: '' });
  });
}

test('a repository is created whole or not at all, and one that lost HEAD is opened, never initialized again', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  const tip = (await write(repo, 'notes/a.yaml', 'a: 1\n')).oid;
  t.deepEqual(fs.readdirSync(join(gitdir, '..')), ['org.git']);
  fs.rmSync(join(gitdir, 'HEAD'));
  const again = await reopen();
  t.is(await resolveRef({ repo: again, ref: 'main' }), tip);
  t.deepEqual(fsck(gitdir), { status: 0, out: '' });
});

test('production deleted with its reflog is refused, reported by the check and never started over as a new root', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  const tip = (await write(repo, 'notes/a.yaml', 'a: 1\n')).oid;
  await createBranch({ repo, branch: 'env/x', from: 'main' });
  fs.rmSync(join(gitdir, 'refs', 'heads', 'main'));
  fs.rmSync(join(gitdir, 'logs', 'refs', 'heads', 'main'));
  const after = await reopen();
  await t.throwsAsync(resolveRef({ repo: after, ref: 'main' }), { instanceOf: RefDamaged, code: 'REPOSITORY_DAMAGED' });
  await t.throwsAsync(write(after, 'notes/b.yaml', 'b: 1\n'), { instanceOf: RefDamaged });
  const report = await checkRepo({ repo: after, repair: true });
  t.false(report.ok);
  t.like(report.refs[0], { ref: 'refs/heads/main', status: 'damaged', oid: null });
  t.false(fs.existsSync(join(gitdir, 'refs', 'heads', 'main')));
  t.is(await resolveRef({ repo: after, ref: 'env/x' }), tip);
});

test('production lost with every branch and reflog is still refused while a commit is in the object store', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  fs.rmSync(join(gitdir, 'refs', 'heads'), { recursive: true });
  fs.rmSync(join(gitdir, 'logs'), { recursive: true });
  fs.mkdirSync(join(gitdir, 'refs', 'heads'));
  const after = await reopen();
  await t.throwsAsync(write(after, 'notes/b.yaml', 'b: 1\n'), { code: 'REPOSITORY_DAMAGED' });
  t.false((await checkRepo({ repo: after, full: true })).ok);
  t.deepEqual(fs.readdirSync(join(gitdir, 'refs', 'heads')), []);
});

test('a repository that never held knowledge starts production with its first write, and the check finds nothing missing', async (t) => {
  const { repo } = await diskRepo(t);
  t.is(await resolveRef({ repo, ref: 'main' }), undefined);
  t.deepEqual((await checkRepo({ repo, repair: true })).refs, []);
  const first = await write(repo, 'notes/a.yaml', 'a: 1\n');
  t.is(await resolveRef({ repo, ref: 'main' }), first.oid);
});

test('a repository folder missing while the caller knows it held knowledge is refused, not made anew', async (t) => {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-git-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  await t.throwsAsync(openRepo({ fs: serviceFs, gitdir, hadHistory: async () => true }), { code: 'REPOSITORY_DAMAGED' });
  t.false(fs.existsSync(gitdir));
  const fresh = await openRepo({ fs: serviceFs, gitdir, hadHistory: async () => false });
  t.is(await resolveRef({ repo: fresh, ref: 'main' }), undefined);
});

test('a zero-byte object reachable from a tip is caught by the start-up check and read as REPOSITORY_DAMAGED, and the branch stays where it is', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  const tip = (await write(repo, 'notes/b.yaml', 'b: 2\n')).oid;
  const blob = objectFile(gitdir, (await git.hashBlob({ object: 'a: 1\n' })).oid);
  fs.chmodSync(blob, 0o644);
  fs.writeFileSync(blob, '');
  const after = await reopen();
  const report = await checkRepo({ repo: after, repair: true });
  t.false(report.ok);
  t.deepEqual(report.refs.map((r) => [r.status, r.oid]), [['ok', tip]]);
  t.true(report.objects!.errors.some((e) => e.startsWith('blob notes/a.yaml')));
  t.deepEqual(report.objects!.repaired, []);
  t.is(fs.statSync(blob).size, 0, 'nothing to repair it from: left as found');
  await t.throwsAsync(readFile({ repo: after, ref: 'main', path: 'notes/a.yaml' }), { code: 'REPOSITORY_DAMAGED' });
  t.is(await readFile({ repo: after, ref: 'main', path: 'notes/b.yaml' }), 'b: 2\n');
});

test('a damaged loose object that a pack also holds is repaired by the check, and git fsck is clean again', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  t.is(spawnSync('git', ['--git-dir', gitdir, 'repack', '-a', '-q'], { encoding: 'utf8' }).status, 0);
  const blob = objectFile(gitdir, (await git.hashBlob({ object: 'a: 1\n' })).oid);
  fs.chmodSync(blob, 0o644);
  fs.writeFileSync(blob, '');
  const after = await reopen();
  await t.throwsAsync(readFile({ repo: after, ref: 'main', path: 'notes/a.yaml' }), { code: 'REPOSITORY_DAMAGED' });
  t.false((await checkRepo({ repo: after, full: true })).ok, 'without repair nothing changes');
  t.is(fs.statSync(blob).size, 0);
  const report = await checkRepo({ repo: after, repair: true, full: true });
  t.true(report.ok);
  t.deepEqual(report.objects!.repaired, [(await git.hashBlob({ object: 'a: 1\n' })).oid]);
  t.is(await readFile({ repo: after, ref: 'main', path: 'notes/a.yaml' }), 'a: 1\n');
  t.deepEqual(fsck(gitdir), { status: 0, out: '' });
});

test('a first commit that a crash interrupted before its branch was in place is not history: production starts again', async (t) => {
  const { repo, gitdir, reopen } = await diskRepo(t);
  await write(repo, 'notes/a.yaml', 'a: 1\n');
  t.false(fs.existsSync(join(gitdir, 'sextant-first-commit')), 'the marker goes once the branch is in place');
  // What kill -9 between the commit's flush and the ref's rename leaves: objects, the marker, no branch.
  fs.rmSync(join(gitdir, 'refs', 'heads', 'main'));
  fs.rmSync(join(gitdir, 'logs'), { recursive: true });
  fs.writeFileSync(join(gitdir, 'sextant-first-commit'), '1\n');
  const after = await reopen();
  t.is(await resolveRef({ repo: after, ref: 'main' }), undefined);
  t.true((await checkRepo({ repo: after, repair: true })).ok);
  const first = await write(after, 'notes/b.yaml', 'b: 1\n');
  t.is(await resolveRef({ repo: after, ref: 'main' }), first.oid);
  t.false(fs.existsSync(join(gitdir, 'sextant-first-commit')));
});
