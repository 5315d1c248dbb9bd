// Trees and commits written with Node's zlib and hash: the ids isomorphic-git gives the same trees and
// commits (so an unchanged tree is still recognized), and git itself reads them and finds them sound.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { openRepo } from '../../src/git/index.ts';
import { writeBlob } from '../../src/git/write-blob.ts';
import { writeCommitObject, writeTreeObject } from '../../src/git/write-object.ts';

async function bareRepo(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-object-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  return openRepo({ fs, gitdir });
}

test('a tree has the id isomorphic-git gives it, with git\'s order of files and folders that share a prefix', async (t) => {
  const repo = await bareRepo(t);
  const blob = await writeBlob(repo, 'title: A\n');
  const sub = await writeTreeObject(repo, [{ mode: '100644', path: 'x.yaml', oid: blob, type: 'blob' }]);
  const names = ['a', 'a.b', 'a-b', 'a0', 'B', 'notes', 'Café ☕.yaml', '日本.yaml', '\uE000.yaml', '😀.yaml', 'z'];
  for (const folders of [['a'], ['a', 'notes'], []]) {
    const entries: TreeEntry[] = names.map((path) => (folders.includes(path) ? { mode: '040000', path, oid: sub, type: 'tree' } : { mode: '100644', path, oid: blob, type: 'blob' }));
    entries.push({ mode: '100755', path: 'run.sh', oid: blob, type: 'blob' });
    for (const order of [entries, [...entries].reverse()]) {
      t.is(await writeTreeObject(repo, order), await git.writeTree({ fs, gitdir: repo.gitdir, tree: order }));
    }
  }
  t.is(await writeTreeObject(repo, []), await git.writeTree({ fs, gitdir: repo.gitdir, tree: [] }));
});

test('a commit has the id isomorphic-git gives it, whatever newlines its message has, and git fsck finds the history sound', async (t) => {
  const repo = await bareRepo(t);
  const tree = await writeTreeObject(repo, [{ mode: '100644', path: 'a.yaml', oid: await writeBlob(repo, 'a: 1\n'), type: 'blob' }]);
  const author = { name: 'Ada Lovelace', email: 'ada@example.com', timestamp: 1_700_000_000 };
  const who = { ...author, timezoneOffset: 0 };
  let parents: string[] = [];
  for (const message of ['Create notes/a.yaml', 'Update\n\nwith a body\n', '\n\nleading and trailing\n\n\n', 'carriage\r\nreturns\r\n', 'Ünïcödé ☕']) {
    const oid = await writeCommitObject(repo, { tree, parents, author, message });
    t.is(oid, await git.writeCommit({ fs, gitdir: repo.gitdir, commit: { tree, parent: parents, author: who, committer: who, message } }));
    parents = parents.length === 0 ? [oid] : [oid, parents[0]!];
  }
  await repo.dfs.flush();
  execFileSync('git', ['--git-dir', repo.gitdir, 'update-ref', 'refs/heads/main', parents[0]!]);
  t.is(execFileSync('git', ['--git-dir', repo.gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { encoding: 'utf8' }).trim(), '');
});
