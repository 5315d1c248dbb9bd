// Commits a set of changed paths without a working tree: only the changed blobs and the trees on
// their paths are written (rewriting all 10k blobs would take seconds).
import git, { type TreeEntry } from 'isomorphic-git';
import { BranchMoved } from './errors.ts';
import type { GitAuthor, GitRepo } from './repo.ts';
import { resolveRef, writeBranchRef } from './resolve-ref.ts';

/** One changed file: new text, or null to delete it. */
export interface FileChange {
  path: string;
  content: string | null;
}

export interface CommitResult {
  /** The branch's commit after the call. */
  oid: string;
  /** False when the changes left the tree as it was (no commit written). */
  changed: boolean;
}

/**
 * Computes changes from the branch's current commit, inside the lock (read-modify-write without
 * lost updates). May throw to refuse the write.
 */
export type ChangeBuilder = (parent: string | undefined) => Promise<FileChange[]>;

/**
 * Commits `changes` on `branch` (created when missing, from `startPoint` or as a first commit),
 * serialized with every other write to the repository.
 */
export async function commitChanges({
  repo,
  branch,
  changes,
  author,
  message,
  startPoint,
}: {
  repo: GitRepo;
  branch: string;
  changes: FileChange[] | ChangeBuilder;
  author: GitAuthor;
  message: string;
  startPoint?: string;
}): Promise<CommitResult> {
  return repo.lock.run(async () => {
    const parent = (await resolveRef({ repo, ref: branch })) ?? (startPoint ? await resolveRef({ repo, ref: startPoint }) : undefined);
    const list = typeof changes === 'function' ? await changes(parent) : changes;
    for (const c of list) if (!isCleanPath(c.path)) throw new Error(`invalid path ${c.path}`);
    if (parent && list.length === 0) return { oid: parent, changed: false };
    const parentTree = parent ? (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: parent, cache: repo.cache })).commit.tree : undefined;
    const tree = (await applyChanges(repo, parentTree, list)) ?? (await writeEntries(repo, []));
    if (parent && tree === parentTree) return { oid: parent, changed: false };
    const oid = await writeCommitAndRef({ repo, branch, expected: parent, tree, parents: parent ? [parent] : [], author, message });
    return { oid, changed: true };
  });
}

/** Writes a commit and moves the branch to it; call inside the repository lock. */
export async function writeCommitAndRef({
  repo,
  branch,
  expected,
  tree,
  parents,
  author,
  message,
}: {
  repo: GitRepo;
  branch: string;
  expected: string | undefined;
  tree: string;
  parents: string[];
  author: GitAuthor;
  message: string;
}): Promise<string> {
  const who = { ...author, timezoneOffset: 0 };
  const oid = await git.writeCommit({ fs: repo.fs, gitdir: repo.gitdir, commit: { tree, parent: parents, author: who, committer: who, message: ensureNewline(message) } });
  // writeRef has no compare-and-swap: check the branch did not move while we worked.
  const current = await resolveRef({ repo, ref: branch });
  if (current !== undefined && current !== expected) throw new BranchMoved(branch);
  await writeBranchRef(repo, branch, oid);
  return oid;
}

/** Applies changes to a tree; returns the new tree id, or undefined when it ends up empty. */
async function applyChanges(repo: GitRepo, treeOid: string | undefined, changes: FileChange[]): Promise<string | undefined> {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) {
    const { tree } = await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache });
    for (const e of tree) entries.set(e.path, e);
  }
  const byChild = new Map<string, FileChange[]>();
  for (const c of changes) {
    const slash = c.path.indexOf('/');
    if (slash === -1) {
      if (c.content === null) entries.delete(c.path);
      else {
        const oid = await git.writeBlob({ fs: repo.fs, gitdir: repo.gitdir, blob: Buffer.from(c.content, 'utf8') });
        entries.set(c.path, { mode: '100644', path: c.path, oid, type: 'blob' });
      }
      continue;
    }
    const head = c.path.slice(0, slash);
    byChild.set(head, [...(byChild.get(head) ?? []), { path: c.path.slice(slash + 1), content: c.content }]);
  }
  for (const [name, sub] of byChild) {
    const existing = entries.get(name);
    const subTree = await applyChanges(repo, existing?.type === 'tree' ? existing.oid : undefined, sub);
    if (subTree) entries.set(name, { mode: '040000', path: name, oid: subTree, type: 'tree' });
    else if (existing?.type === 'tree' || sub.some((c) => c.content !== null)) entries.delete(name);
  }
  if (entries.size === 0) return undefined;
  // An unchanged tree hashes to the same id, which is how callers detect a no-op.
  return writeEntries(repo, [...entries.values()]);
}

async function writeEntries(repo: GitRepo, entries: TreeEntry[]): Promise<string> {
  return git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree: entries });
}

function ensureNewline(message: string): string {
  return message.endsWith('\n') ? message : `${message}\n`;
}

/** Relative, slash-separated, no empty, `.` or `..` segments. */
export function isCleanPath(path: string): boolean {
  return path.length > 0 && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s !== '.git');
}
