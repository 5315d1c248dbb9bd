// Resolutions of conflicting files, applied before a merge: each resolved path is given the same
// content on both sides, so the merge settles it like any file both sides changed alike, while every
// other path merges as usual. The side commits are loose objects only; no ref names them.
import git from 'isomorphic-git';
import { applyChanges, type FileChange } from './commit-changes.ts';
import type { GitAuthor, GitRepo } from './repo.ts';
import { readFileVersion } from './read-file.ts';

/** How one conflicting file is settled: one side's version (`ours`: the branch merged into), or given content (null deletes it). */
export type FileResolution = { path: string; take: 'ours' | 'theirs' } | { path: string; content: string | null };

/** Commits on top of `ours` and `theirs` whose trees both hold the resolved files; their merge base is the same as the originals'. */
export async function resolvedSides(repo: GitRepo, ours: string, theirs: string, resolutions: FileResolution[], author: GitAuthor): Promise<[string, string]> {
  const changes: FileChange[] = [];
  for (const r of resolutions) {
    if ('content' in r) changes.push({ path: r.path, content: r.content });
    else changes.push({ path: r.path, content: (await readFileVersion({ repo, ref: r.take === 'ours' ? ours : theirs, path: r.path }))?.text ?? null });
  }
  const side = async (parent: string) => {
    const { commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: parent, cache: repo.cache });
    const tree = (await applyChanges(repo, commit.tree, changes)) ?? (await git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree: [] }));
    const who = { ...author, timezoneOffset: 0 };
    return git.writeCommit({ fs: repo.fs, gitdir: repo.gitdir, commit: { tree, parent: [parent], author: who, committer: who, message: 'resolutions\n' } });
  };
  return [await side(ours), await side(theirs)];
}
