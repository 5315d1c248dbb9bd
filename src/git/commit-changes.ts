// Commits a set of changed paths without a working tree: only the changed blobs and the trees on
// their paths are written (rewriting all 10k blobs would take seconds).
import git, { type TreeEntry } from 'isomorphic-git';
import { InvalidPath } from './errors.ts';
import { pathProblem } from './path-name.ts';
import { branchRef, MAIN_BRANCH, type GitAuthor, type GitRepo } from './repo.ts';
import { beginFirstCommit, endFirstCommit } from './repo-history.ts';
import { resolveRef, writeBranchRef } from './resolve-ref.ts';
import { commitTree, treeEntries } from './tree-cache.ts';
import { writeBlob } from './write-blob.ts';
import { createPackWriter, type BlobSink } from './write-pack.ts';
import { objectId, writeCommitObject, writeTreeObject } from './write-object.ts';

/**
 * One changed file: new text, or null to delete it; or the id of a blob already written into the
 * repository (writeBlob, or the builder's BlobSink), so that a commit of thousands of files never holds all their texts.
 */
export type FileChange = { path: string; content: string | null } | { path: string; oid: string };

/** The blob id a change leaves at its path: null when it deletes the file. */
const blobOf = (c: FileChange): string | null => ('oid' in c ? c.oid : c.content === null ? null : objectId('blob', Buffer.from(c.content, 'utf8')).oid);

export interface CommitResult {
  /** The branch's commit after the call. */
  oid: string;
  /** False when the changes left the tree as it was (no commit written). */
  changed: boolean;
}

/**
 * Computes changes from the branch's current commit, inside the lock (read-modify-write without
 * lost updates). May throw to refuse the write. Blobs written to `blobs` may be named by id: they go
 * into one pack when there are many (write-pack.ts), written before the branch moves.
 */
export type ChangeBuilder = (parent: string | undefined, blobs: BlobSink) => Promise<FileChange[]>;

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
    const tip = await resolveRef({ repo, ref: branch, fresh: true });
    const parent = tip ?? (startPoint ? await resolveRef({ repo, ref: startPoint, fresh: true }) : undefined);
    const pack = createPackWriter(repo);
    const list = typeof changes === 'function' ? await changes(parent, pack) : changes;
    // Checked before anything is written: a name git cannot hold once wrote a malformed tree.
    for (const c of list) {
      const problem = pathProblem(c.path);
      if (problem) throw new InvalidPath(c.path, problem);
    }
    if (parent && list.length === 0) return { oid: parent, changed: false };
    // A first commit's objects are not history until its branch is in place (see repo-history.ts).
    const first = !parent && branchRef(branch) === branchRef(MAIN_BRANCH);
    if (first) await beginFirstCommit(repo);
    // The blobs named by id reach the disk (a pack and its index, fsynced) before any tree names them.
    const packed = await pack.finish();
    const parentTree = parent ? await commitTree(repo, parent) : undefined;
    const tree = (await applyChanges(repo, parentTree, list)) ?? (await writeTreeObject(repo, []));
    if (parent && tree === parentTree) return { oid: parent, changed: false };
    const oid = await writeCommitAndRef({ repo, branch, expected: tip, tree, parents: parent ? [parent] : [], author, message, check: list, packed });
    if (first) await endFirstCommit(repo);
    return { oid, changed: true };
  });
}

/**
 * Writes a commit and moves the branch to it from `expected` (compare-and-swap); call inside the
 * repository lock. The commit, and each file in `check`, is read back from disk first: no branch
 * moves to a commit that cannot be read (a blob in `packed` is one the index of a pack just written lists).
 */
export async function writeCommitAndRef({
  repo,
  branch,
  expected,
  tree,
  parents,
  author,
  message,
  check = [],
  packed,
}: {
  repo: GitRepo;
  branch: string;
  expected: string | undefined;
  tree: string;
  parents: string[];
  author: GitAuthor;
  message: string;
  check?: FileChange[];
  packed?: Set<string>;
}): Promise<string> {
  const oid = await writeCommitObject(repo, { tree, parents, author, message });
  await readBack(repo, oid, tree, check, packed);
  await writeBranchRef(repo, branch, oid, { expected, who: author, message: `commit: ${message.split('\n')[0]}` });
  return oid;
}

/** Reads a new commit (and each changed file in `check`) back from disk; throws when it does not read back. */
export async function readBack(repo: GitRepo, oid: string, tree: string | undefined, check: FileChange[] = [], packed = new Set<string>()): Promise<void> {
  const commit = { tree: await commitTree(repo, oid) };
  if (tree !== undefined && commit.tree !== tree) throw new Error(`commit ${oid} does not read back`);
  // New trees are parsed from disk here and kept: the next commit on this branch starts from them.
  await treeEntries(repo, commit.tree);
  const blobs = new Map<string, string | null>();
  for (const c of check) blobs.set(c.path, blobOf(c));
  // A blob written before the commit (a change by id) is read back too: it was written by an earlier step.
  // A batch at a time: one stat each, their round trips overlapped.
  const byId = check.flatMap((c) => ('oid' in c && !packed.has(c.oid) ? [c] : []));
  for (let i = 0; i < byId.length; i += 64) await Promise.all(byId.slice(i, i + 64).map((c) => checkBlob(repo, c.oid, c.path)));
  // Each tree's entries by name, once: searching a folder's list per file was quadratic (5,000 files in one folder).
  const byName = new Map<string, Map<string, TreeEntry>>();
  const child = async (tree: string, name: string) => {
    let names = byName.get(tree);
    if (!names) byName.set(tree, (names = new Map((await treeEntries(repo, tree)).map((e) => [e.path, e]))));
    return names.get(name);
  };
  for (const [path, expected] of blobs) {
    let entry: TreeEntry | undefined = { mode: '040000', path: '', oid: commit.tree, type: 'tree' };
    for (const name of path.split('/')) entry = entry?.type === 'tree' ? await child(entry.oid, name) : undefined;
    if ((entry?.type === 'blob' ? entry.oid : null) !== expected) throw new Error(`${path} does not read back from commit ${oid}`);
  }
}

/** Throws unless the blob `oid` is in the repository (loose, pending its flush, or packed). */
async function checkBlob(repo: GitRepo, oid: string, path: string): Promise<void> {
  const loose = `${repo.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  // The durable file system's stat sees a pending object and counts a damaged one as absent.
  const fs = (repo.fs as unknown as { promises: { stat(path: string): Promise<unknown> } }).promises;
  if (await fs.stat(loose).then(() => true, () => false)) return;
  const found = await git.readObject({ fs: repo.fs, gitdir: repo.gitdir, oid, format: 'deflated', cache: repo.cache }).then((o) => o.type === 'blob', () => false);
  if (!found) throw new Error(`${path}: blob ${oid} is not in the repository`);
}

/** Applies changes to a tree; returns the new tree id, or undefined when it ends up empty. */
export async function applyChanges(repo: GitRepo, treeOid: string | undefined, changes: FileChange[]): Promise<string | undefined> {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) for (const e of await treeEntries(repo, treeOid)) entries.set(e.path, { ...e });
  const byChild = new Map<string, FileChange[]>();
  for (const c of changes) {
    const slash = c.path.indexOf('/');
    if (slash === -1) {
      if ('oid' in c) entries.set(c.path, { mode: '100644', path: c.path, oid: c.oid, type: 'blob' });
      else if (c.content === null) entries.delete(c.path);
      else {
        const oid = await writeBlob(repo, c.content);
        entries.set(c.path, { mode: '100644', path: c.path, oid, type: 'blob' });
      }
      continue;
    }
    const head = c.path.slice(0, slash);
    const rest = { ...c, path: c.path.slice(slash + 1) };
    const sub = byChild.get(head);
    // Appended in place: copying the list for each change was quadratic (5,000 files in one folder made 12.5M copies).
    if (sub) sub.push(rest);
    else byChild.set(head, [rest]);
  }
  for (const [name, sub] of byChild) {
    const existing = entries.get(name);
    const subTree = await applyChanges(repo, existing?.type === 'tree' ? existing.oid : undefined, sub);
    if (subTree) entries.set(name, { mode: '040000', path: name, oid: subTree, type: 'tree' });
    else if (existing?.type === 'tree' || sub.some((c) => 'oid' in c || c.content !== null)) entries.delete(name);
  }
  if (entries.size === 0) return undefined;
  // An unchanged tree hashes to the same id, which is how callers detect a no-op.
  return writeTreeObject(repo, [...entries.values()]);
}
