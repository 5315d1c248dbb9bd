// Trees, commits and blobs read through the one checked read of a loose object (read-object.ts): what
// isomorphic-git reads from the same objects, written by git itself, loose or packed; the names git
// refuses are refused; a damaged object reads as REPOSITORY_DAMAGED; and no read asks the thread pool
// (counted process-wide, so the tests run one at a time).
import test from 'ava';
import { createHook } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type FsClient } from 'isomorphic-git';
import { loopFs, openRepo } from '../../src/git/index.ts';
import { readBlobObject, readCommitTree, readTreeObject } from '../../src/git/read-object.ts';

function bareGitdir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-read-object-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  return gitdir;
}

const gitIn = (gitdir: string, args: string[], input?: string | Buffer) => execFileSync('git', ['--git-dir', gitdir, ...args], { input }).toString().trim();

/** A commit of a tree written by git, with names that order differently as bytes, as UTF-16 and as git orders trees. */
function seed(gitdir: string): { commit: string; tree: string; blob: string } {
  const blob = gitIn(gitdir, ['hash-object', '-w', '--stdin'], 'title: A\n');
  const sub = gitIn(gitdir, ['mktree'], `100644 blob ${blob}\tx.yaml\n`);
  const names = ['a', 'a.b', 'a-b', 'a0', 'B', 'Café ☕.yaml', '日本.yaml', '\uE000.yaml', '😀.yaml', 'z'];
  const lines = names.map((n) => `100644 blob ${blob}\t${n}`);
  lines.push(`040000 tree ${sub}\tnotes`, `040000 tree ${sub}\ta.c`, `100755 blob ${blob}\trun.sh`, `120000 blob ${blob}\tlink`, `160000 commit ${"1".repeat(40)}\tmodule`);
  const tree = gitIn(gitdir, ['mktree', '--missing'], `${lines.join('\n')}\n`);
  const commit = gitIn(gitdir, ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit-tree', tree, '-m', 'seed']);
  return { commit, tree, blob };
}

async function sameAsIsomorphicGit(t: { deepEqual(a: unknown, b: unknown): void; is(a: unknown, b: unknown): void }, gitdir: string, ids: { commit: string; tree: string; blob: string }) {
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  t.deepEqual(await readTreeObject(repo, ids.tree), (await git.readTree({ fs, gitdir, oid: ids.tree })).tree);
  t.deepEqual(await readTreeObject(repo, ids.commit), (await git.readTree({ fs, gitdir, oid: ids.commit })).tree);
  t.is(await readCommitTree(repo, ids.commit), ids.tree);
  t.deepEqual(await readBlobObject(repo, ids.blob), Buffer.from((await git.readBlob({ fs, gitdir, oid: ids.blob })).blob));
  t.deepEqual(await readTreeObject(repo, '4b825dc642cb6eb9a060e54bf8d69288fbee4904'), []);
}

test.serial('a tree, a commit and a blob written by git read as isomorphic-git reads them, loose and packed', async (t) => {
  const gitdir = bareGitdir(t);
  const ids = seed(gitdir);
  await sameAsIsomorphicGit(t, gitdir, ids);
  gitIn(gitdir, ['update-ref', 'refs/heads/main', ids.commit]);
  gitIn(gitdir, ['repack', '-a', '-d', '-q']);
  gitIn(gitdir, ['prune-packed']);
  t.false(fs.existsSync(join(gitdir, 'objects', ids.tree.slice(0, 2), ids.tree.slice(2))), 'the objects are packed now');
  await sameAsIsomorphicGit(t, gitdir, ids);
});

test.serial('an object of another type, a missing object and a tree naming .git fail as isomorphic-git fails them', async (t) => {
  const gitdir = bareGitdir(t);
  const { tree, blob } = seed(gitdir);
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  await t.throwsAsync(readTreeObject(repo, blob), { code: 'ObjectTypeError' });
  await t.throwsAsync(readBlobObject(repo, tree), { code: 'ObjectTypeError' });
  await t.throwsAsync(readCommitTree(repo, tree), { code: 'ObjectTypeError' });
  await t.throwsAsync(readBlobObject(repo, 'f'.repeat(40)), { code: 'NotFoundError' });
  for (const name of ['.git', '.GIT', 'git~1', '.git::$INDEX_ALLOCATION', '..']) {
    const body = Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(blob, 'hex')]);
    const bad = gitIn(gitdir, ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], body);
    await t.throwsAsync(readTreeObject(repo, bad), { code: 'UnsafeFilepathError' }, name);
    await t.throwsAsync(git.readTree({ fs, gitdir, oid: bad }), { code: 'UnsafeFilepathError' }, name);
  }
});

test.serial('a loose object that does not hash to its name reads as REPOSITORY_DAMAGED', async (t) => {
  const gitdir = bareGitdir(t);
  const { tree, blob } = seed(gitdir);
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  const path = (oid: string) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  fs.chmodSync(path(blob), 0o644);
  fs.writeFileSync(path(blob), fs.readFileSync(path(tree)));
  await t.throwsAsync(readBlobObject(repo, blob), { code: 'REPOSITORY_DAMAGED' });
  fs.chmodSync(path(tree), 0o644);
  fs.writeFileSync(path(tree), '');
  await t.throwsAsync(readTreeObject(repo, tree), { code: 'REPOSITORY_DAMAGED' });
});

test.serial('reading a tree, a commit and a blob asks the thread pool nothing: no digest, no inflate stream, no file call', async (t) => {
  const gitdir = bareGitdir(t);
  const ids = seed(gitdir);
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  const pool: string[] = [];
  const hook = createHook({
    init(_id, type) {
      if (['FSREQCALLBACK', 'FSREQPROMISE', 'HASHREQUEST'].includes(type)) pool.push(type);
    },
  });
  hook.enable();
  try {
    await readTreeObject(repo, await readCommitTree(repo, ids.commit));
    await readBlobObject(repo, ids.blob);
  } finally {
    hook.disable();
  }
  t.deepEqual(pool, []);
});
