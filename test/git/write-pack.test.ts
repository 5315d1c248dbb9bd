// A commit whose builder writes many blobs gets them as one pack and its index (as `git fast-import`
// writes them), which git itself reads and checks, as do isomorphic-git and another handle on the folder.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type FsClient } from 'isomorphic-git';
import { commitChanges, loopFs, openRepo, readBlobs, readFile, readTree, resolveRef, type GitRepo } from '../../src/git/index.ts';
import { PACK_MIN_OBJECTS } from '../../src/git/write-pack.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };
const serviceFs = loopFs() as unknown as FsClient;
const gitOut = (gitdir: string, ...args: string[]) => execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });
const packFiles = (gitdir: string) => fs.readdirSync(join(gitdir, 'objects', 'pack')).sort();
const looseCount = (gitdir: string) => fs.readdirSync(join(gitdir, 'objects')).filter((d) => /^[0-9a-f]{2}$/.test(d)).reduce((n, d) => n + fs.readdirSync(join(gitdir, 'objects', d)).length, 0);
const text = (i: number) => `name: t${i}\ncolumns:\n  - name: id\n    description: row ${i}\n`;

async function diskRepo(t: { teardown(fn: () => void): void }): Promise<{ repo: GitRepo; gitdir: string }> {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sextant-pack-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  const repo = await openRepo({ fs: serviceFs, gitdir });
  await commitChanges({ repo, branch: 'main', author, message: 'first', changes: [{ path: 'notes/n.yaml', content: 'title: N\n' }] });
  return { repo, gitdir };
}

/** Commits `count` files by id, their blobs written through the builder's sink. */
const commitMany = (repo: GitRepo, count: number, branch = 'main') =>
  commitChanges({
    repo,
    branch,
    author,
    message: `${count} files`,
    changes: async (_parent, blobs) => Promise.all(Array.from({ length: count }, async (_, i) => ({ path: `tables/wh/t${i}.yaml`, oid: await blobs.writeBlob(text(i)) }))),
  });

test('many blobs named by id are written as one pack and its index, committed by id, and git fsck --full finds the repository whole', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  const loose = looseCount(gitdir);
  const result = await commitMany(repo, 300);
  t.true(result.changed);
  const packs = packFiles(gitdir);
  t.is(packs.length, 2);
  t.regex(packs[0]!, /^pack-[0-9a-f]{40}\.idx$/);
  t.is(packs[1], packs[0]!.replace(/idx$/, 'pack'));
  // Only the commit and its three trees are loose objects: no blob.
  t.is(looseCount(gitdir), loose + 4);
  const fsck = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { encoding: 'utf8' });
  t.deepEqual({ status: fsck.status, out: `${fsck.stdout}${fsck.stderr}`.trim() }, { status: 0, out: '' });
  t.notThrows(() => gitOut(gitdir, 'verify-pack', join(gitdir, 'objects', 'pack', packs[1]!)));
  t.is(gitOut(gitdir, 'show', 'main:tables/wh/t299.yaml'), text(299));
  t.is(gitOut(gitdir, 'ls-tree', '-r', '--name-only', 'main').split('\n').filter(Boolean).length, 301);
  // The service's own reads and isomorphic-git's find the packed blobs.
  t.is(await readFile({ repo, ref: 'main', path: 'tables/wh/t7.yaml' }), text(7));
  const files = await readTree({ repo, ref: 'main', prefix: 'tables/wh' });
  t.deepEqual(await readBlobs(repo, files.map((f) => f.oid)), files.map((f) => text(Number(/t(\d+)\.yaml$/.exec(f.path)![1]))));
  const { oid } = await git.hashBlob({ object: text(42) });
  t.is(Buffer.from((await git.readBlob({ fs: fs, gitdir, oid })).blob).toString('utf8'), text(42));
});

test('another handle on the same folder (another process, a replica) sees a pack written after it first read the repository', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  const other = await openRepo({ fs: serviceFs, gitdir });
  t.is(await readFile({ repo: other, ref: 'main', path: 'notes/n.yaml' }), 'title: N\n');
  await commitMany(repo, 100);
  t.is(await readFile({ repo: other, ref: 'main', path: 'tables/wh/t99.yaml' }), text(99));
  // A second pack later is found too, beside the first one the other handle keeps in its cache.
  await commitChanges({ repo, branch: 'main', author, message: 'more', changes: async (_p, blobs) => Promise.all(Array.from({ length: 100 }, async (_, i) => ({ path: `tables/wh/u${i}.yaml`, oid: await blobs.writeBlob(`u: ${i}\n`) }))) });
  t.is(packFiles(gitdir).length, 4);
  t.is(await readFile({ repo: other, ref: 'main', path: 'tables/wh/u99.yaml' }), 'u: 99\n');
  t.is(await readFile({ repo: other, ref: 'main', path: 'tables/wh/t3.yaml' }), text(3));
});

test('a few blobs are written as loose objects, not as a pack of their own', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  const loose = looseCount(gitdir);
  await commitMany(repo, PACK_MIN_OBJECTS - 1);
  t.deepEqual(fs.existsSync(join(gitdir, 'objects', 'pack')) ? packFiles(gitdir) : [], []);
  t.is(looseCount(gitdir), loose + PACK_MIN_OBJECTS - 1 + 4);
  t.is(gitOut(gitdir, 'show', 'main:tables/wh/t0.yaml'), text(0));
  t.is(spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling']).status, 0);
});

test('the same text named at many paths is packed once, and a builder that names nothing writes no pack', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  const before = await resolveRef({ repo, ref: 'main', fresh: true });
  t.deepEqual(await commitChanges({ repo, branch: 'main', author, message: 'none', changes: async () => [] }), { oid: before!, changed: false });
  await commitChanges({
    repo,
    branch: 'main',
    author,
    message: 'same',
    changes: async (_p, blobs) => {
      const distinct = await Promise.all(Array.from({ length: PACK_MIN_OBJECTS }, (_, i) => blobs.writeBlob(text(i))));
      const same = await Promise.all(Array.from({ length: 50 }, () => blobs.writeBlob('same: true\n')));
      return [...distinct.map((oid, i) => ({ path: `a/${i}.yaml`, oid })), ...same.map((oid, i) => ({ path: `b/${i}.yaml`, oid }))];
    },
  });
  const pack = packFiles(gitdir).find((f) => f.endsWith('.pack'))!;
  const objects = gitOut(gitdir, 'verify-pack', '-v', join(gitdir, 'objects', 'pack', pack)).split('\n').filter((l) => /^[0-9a-f]{40} blob/.test(l));
  t.is(objects.length, PACK_MIN_OBJECTS + 1);
  t.is(gitOut(gitdir, 'show', 'main:b/49.yaml'), 'same: true\n');
});

test('packed blobs read back through the service reader from a fresh handle, and an operator`s git gc (a pack of deltas) still reads', async (t) => {
  const { repo, gitdir } = await diskRepo(t);
  // Texts long and alike enough for git to store most as deltas of one another.
  const long = (i: number) => `name: t${i}\ncolumns:\n${Array.from({ length: 30 }, (_, c) => `  - name: column_${c}\n    description: the column ${c} of every table\n`).join('')}`;
  await commitChanges({ repo, branch: 'main', author, message: 'long', changes: async (_p, blobs) => Promise.all(Array.from({ length: 200 }, async (_, i) => ({ path: `tables/wh/t${i}.yaml`, oid: await blobs.writeBlob(long(i)) }))) });
  const fresh = await openRepo({ fs: serviceFs, gitdir });
  const files = await readTree({ repo: fresh, ref: 'main', prefix: 'tables/wh' });
  const expected = files.map((f) => long(Number(/t(\d+)\.yaml$/.exec(f.path)![1])));
  t.deepEqual(await readBlobs(fresh, files.map((f) => f.oid)), expected);
  // git gc repacks everything into one pack with deltas and drops the service's pack: both handles still read.
  gitOut(gitdir, 'gc', '-q', '--aggressive', '--prune=now');
  t.true(gitOut(gitdir, 'verify-pack', '-v', join(gitdir, 'objects', 'pack', packFiles(gitdir).find((f) => f.endsWith('.idx'))!)).includes('chain length'));
  const after = await openRepo({ fs: serviceFs, gitdir });
  t.deepEqual(await readBlobs(after, files.map((f) => f.oid)), expected);
  t.deepEqual(await readBlobs(fresh, files.map((f) => f.oid)), expected);
  t.is(await readFile({ repo: after, ref: 'main', path: 'notes/n.yaml' }), 'title: N\n');
});
