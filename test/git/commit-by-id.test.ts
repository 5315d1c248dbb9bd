// A commit that names files by the id of a blob written before it (how an import of thousands of
// files commits without holding their texts): git reads the commit back, an id already at its path is
// no change, and an id that names no blob is refused before the branch moves.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitChanges, openRepo, resolveRef, writeBlob, type GitRepo } from '../../src/git/index.ts';

const author = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000 };
const gitOut = (gitdir: string, ...args: string[]) => execFileSync('git', ['--git-dir', gitdir, ...args]).toString();

async function diskRepo(): Promise<{ repo: GitRepo; gitdir: string }> {
  const gitdir = join(mkdtempSync(join(tmpdir(), 'sextant-commit-id-')), 'org.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  const repo = await openRepo({ fs, gitdir });
  await commitChanges({ repo, branch: 'main', author, message: 'first', changes: [{ path: 'tables/wh/a.yaml', content: 'name: a\n' }, { path: 'notes/n.yaml', content: 'title: N\n' }] });
  return { repo, gitdir };
}

test('files named by the id of a blob written before the commit are committed with texts and deletions, and git reads them back', async (t) => {
  const { repo, gitdir } = await diskRepo();
  const changes = await commitChanges({
    repo,
    branch: 'main',
    author,
    message: 'by id',
    changes: async () => [
      { path: 'tables/wh/b.yaml', oid: await writeBlob(repo, 'name: b\n') },
      { path: 'tables/wh/a.yaml', oid: await writeBlob(repo, 'name: a2\n') },
      { path: 'notes/m.yaml', content: 'title: M\n' },
      { path: 'notes/n.yaml', content: null },
    ],
  });
  t.true(changes.changed);
  t.is(gitOut(gitdir, 'show', 'main:tables/wh/b.yaml'), 'name: b\n');
  t.is(gitOut(gitdir, 'show', 'main:tables/wh/a.yaml'), 'name: a2\n');
  t.is(gitOut(gitdir, 'ls-tree', '-r', '--name-only', 'main'), 'notes/m.yaml\ntables/wh/a.yaml\ntables/wh/b.yaml\n');
  t.notThrows(() => gitOut(gitdir, 'fsck', '--strict'));
  // The same blob at the same path again: the tree is as it was, so no commit.
  const again = await commitChanges({ repo, branch: 'main', author, message: 'same', changes: async () => [{ path: 'tables/wh/b.yaml', oid: await writeBlob(repo, 'name: b\n') }] });
  t.deepEqual(again, { oid: changes.oid, changed: false });
});

test('an id that names no blob in the repository is refused, and the branch does not move', async (t) => {
  const { repo } = await diskRepo();
  const before = await resolveRef({ repo, ref: 'main', fresh: true });
  const missing = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5390'.replace(/^e/, 'f');
  await t.throwsAsync(commitChanges({ repo, branch: 'main', author, message: 'broken', changes: [{ path: 'tables/wh/c.yaml', oid: missing }] }), { message: /not in the repository/ });
  t.is(await resolveRef({ repo, ref: 'main', fresh: true }), before);
});
