// Merge bases found by walking parents read through read-object.ts: the same as isomorphic-git's
// findMergeBase and git's `merge-base --all` on a history with a criss-cross merge, loose and packed.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import fs, { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type FsClient } from 'isomorphic-git';
import { loopFs, openRepo } from '../../src/git/index.ts';
import { findMergeBase } from '../../src/git/merge-base.ts';

/** A history with two branches, merged into each other crosswise (two merge bases), and an unrelated root. */
function history(gitdir: string): Record<string, string> {
  const run = (args: string[], input?: string) => execFileSync('git', ['--git-dir', gitdir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', ...args], { input }).toString().trim();
  const tree = (text: string) => run(['mktree'], `100644 blob ${run(['hash-object', '-w', '--stdin'], text)}\ta.txt\n`);
  const commit = (name: string, parents: string[]) => run(['commit-tree', tree(name), ...parents.flatMap((p) => ['-p', p]), '-m', name]);
  const c: Record<string, string> = {};
  c['root'] = commit('root', []);
  c['a1'] = commit('a1', [c['root']]);
  c['b1'] = commit('b1', [c['root']]);
  c['a2'] = commit('a2', [c['a1'], c['b1']]);
  c['b2'] = commit('b2', [c['b1'], c['a1']]);
  c['a3'] = commit('a3', [c['a2']]);
  c['b3'] = commit('b3', [c['b2']]);
  c['other'] = commit('other', []);
  run(['update-ref', 'refs/heads/a', c['a3']]);
  run(['update-ref', 'refs/heads/b', c['b3']]);
  run(['update-ref', 'refs/heads/other', c['other']]);
  return c;
}

test('merge bases are the ones isomorphic-git and git find, criss-cross merges and unrelated roots included, loose and packed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-merge-base-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gitdir = join(dir, 'org.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  const c = history(gitdir);
  const repo = await openRepo({ fs: loopFs() as unknown as FsClient, gitdir });
  const pairs = [['a3', 'b3'], ['a2', 'b2'], ['a3', 'a1'], ['a1', 'b1'], ['a3', 'a3'], ['a3', 'other']];
  for (const round of ['loose', 'packed']) {
    if (round === 'packed') execFileSync('git', ['--git-dir', gitdir, 'repack', '-a', '-d', '-q']);
    for (const [x, y] of pairs) {
      const oids = [c[x!]!, c[y!]!];
      const ours = (await findMergeBase(repo, oids)).sort();
      t.deepEqual(ours, ((await git.findMergeBase({ fs, gitdir, oids })) as string[]).sort(), `${x} ${y} ${round}`);
      // git exits with 1 when there is no merge base.
      const cli = spawnSync('git', ['--git-dir', gitdir, 'merge-base', '--all', ...oids]).stdout.toString().trim().split('\n').filter(Boolean).sort();
      t.deepEqual(ours, cli, `${x} ${y} ${round}`);
    }
  }
  t.is((await findMergeBase(repo, [c['a3']!, c['b3']!])).length, 2, 'the criss-cross merge has two bases');
});
