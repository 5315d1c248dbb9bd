// Merges one branch into another (fast-forward or a merge commit). Conflict prediction is the same
// call with dryRun: true, which moves no ref. Paths changed on one side only are settled by a pruned
// tree merge (merge-trees.ts); anything else goes through isomorphic-git's merge. Conflicts come back
// as a value, never thrown, so the caller decides after the lock is released. With resolutions, the
// conflicting files are settled first (resolved-sides.ts) and the merge is still one commit.
import git, { Errors } from 'isomorphic-git';
import { BranchNotFound, MergeNotSupported } from './errors.ts';
import { readBack, writeCommitAndRef } from './commit-changes.ts';
import { findMergeBase } from './merge-base.ts';
import { mergeTrees, NEEDS_FULL_MERGE } from './merge-trees.ts';
import { branchRef, type GitAuthor, type GitRepo } from './repo.ts';
import { resolveRef, writeBranchRef } from './resolve-ref.ts';
import { commitTree } from './tree-cache.ts';
import { resolvedSides, type FileResolution } from './resolved-sides.ts';
import { writeTreeObject } from './write-object.ts';

export type MergeOutcome =
  | { status: 'up_to_date'; oid: string }
  | { status: 'fast_forward'; oid: string }
  | { status: 'merged'; oid: string | undefined; tree: string }
  | { status: 'conflict'; conflicts: string[] };

/**
 * Merges `from` into `into`; with `dryRun` nothing but loose objects is written. With
 * `fastForward: false` a merge commit by `author` is written even when `into` could just move, so the
 * history records who merged. `resolutions` settle conflicting files (any still unresolved come back
 * as the conflict); a merge with them is still one commit with `into` and `from` as parents.
 */
export async function mergeBranch({
  repo,
  from,
  into,
  author,
  message,
  dryRun = false,
  fastForward = true,
  resolutions = [],
}: {
  repo: GitRepo;
  from: string;
  into: string;
  author: GitAuthor;
  message?: string;
  dryRun?: boolean;
  fastForward?: boolean;
  resolutions?: FileResolution[];
}): Promise<MergeOutcome> {
  const run = () => mergeCore({ repo, from, into, author, message: message ?? `Merge ${from} into ${into}`, dryRun, fastForward, resolutions });
  return dryRun ? run() : repo.lock.run(run);
}

interface MergeArgs {
  repo: GitRepo;
  from: string;
  into: string;
  author: GitAuthor;
  message: string;
  dryRun: boolean;
  fastForward: boolean;
  resolutions: FileResolution[];
}

async function mergeCore(a: MergeArgs): Promise<MergeOutcome> {
  const { repo, from, into, author, message, dryRun } = a;
  const ours = await resolveRef({ repo, ref: into, fresh: true });
  if (!ours) throw new BranchNotFound(into);
  const theirs = await resolveRef({ repo, ref: from, fresh: true });
  if (!theirs) throw new BranchNotFound(from);
  const fast = await fastMerge(repo, ours, theirs);
  if (a.resolutions.length > 0 && fast?.status !== 'up_to_date' && fast?.status !== 'fast_forward') return resolvedMerge(a, ours, theirs);
  if (fast) {
    if (fast.status === 'up_to_date') return { status: 'up_to_date', oid: ours };
    if (fast.status === 'fast_forward') return forward(a, ours, theirs);
    if (dryRun) return { status: 'merged', oid: undefined, tree: fast.tree };
    const oid = await writeCommitAndRef({ repo, branch: into, expected: ours, tree: fast.tree, parents: [ours, theirs], author, message });
    return { status: 'merged', oid, tree: fast.tree };
  }
  const who = { ...author, timezoneOffset: 0 };
  let result;
  try {
    // The merge commit is written (unless dryRun) but the ref is moved by us, after re-checking it:
    // writeRef has no compare-and-swap.
    result = await git.merge({
      fs: repo.fs,
      gitdir: repo.gitdir,
      cache: repo.cache,
      ours: branchRef(into),
      theirs: branchRef(from),
      author: who,
      committer: who,
      message,
      dryRun,
      noUpdateBranch: true,
      abortOnConflict: true,
    });
  } catch (err) {
    if (err instanceof Errors.MergeConflictError) return { status: 'conflict', conflicts: conflictsOf(err) };
    if (err instanceof Errors.MergeNotSupportedError) throw new MergeNotSupported('several merge bases or a file replaced by a folder');
    throw err;
  }
  if (result.alreadyMerged) return { status: 'up_to_date', oid: ours };
  if (result.fastForward) return forward(a, ours, result.oid!);
  if (dryRun) return { status: 'merged', oid: undefined, tree: result.tree! };
  await readBack(repo, result.oid!, result.tree);
  await writeBranchRef(repo, into, result.oid!, { expected: ours, who: author, message: `merge ${from}: ${message}` });
  return { status: 'merged', oid: result.oid!, tree: result.tree! };
}

/** The merge of the two sides once the resolved files are the same on both; one commit of `ours` and `theirs`. */
async function resolvedMerge(a: MergeArgs, ours: string, theirs: string): Promise<MergeOutcome> {
  const { repo, into, author, message, dryRun } = a;
  const [oursSide, theirsSide] = await resolvedSides(repo, ours, theirs, a.resolutions, author);
  let tree: string;
  const fast = await fastMerge(repo, oursSide, theirsSide);
  if (fast?.status === 'merged') tree = fast.tree;
  else {
    const who = { ...author, timezoneOffset: 0 };
    try {
      // Not a dry run: the merged blobs must be written. The commit it writes (of the two sides) is
      // left loose; ours below has the real parents.
      const result = await git.merge({ fs: repo.fs, gitdir: repo.gitdir, cache: repo.cache, ours: oursSide, theirs: theirsSide, author: who, committer: who, message, noUpdateBranch: true, abortOnConflict: true });
      tree = result.tree!;
    } catch (err) {
      if (err instanceof Errors.MergeConflictError) return { status: 'conflict', conflicts: conflictsOf(err) };
      if (err instanceof Errors.MergeNotSupportedError) throw new MergeNotSupported('several merge bases or a file replaced by a folder');
      throw err;
    }
  }
  if (dryRun) return { status: 'merged', oid: undefined, tree };
  const oid = await writeCommitAndRef({ repo, branch: into, expected: ours, tree, parents: [ours, theirs], author, message });
  return { status: 'merged', oid, tree };
}

function conflictsOf(err: InstanceType<typeof Errors.MergeConflictError>): string[] {
  const d = err.data;
  return [...new Set([...d.filepaths, ...d.bothModified, ...d.deleteByUs, ...d.deleteByTheirs])].sort();
}

/** `into` can move to `theirs`: it does, or with fastForward false a merge commit records the merger. */
async function forward(a: MergeArgs, ours: string, theirs: string): Promise<MergeOutcome> {
  const { repo, from, into, author, message, dryRun } = a;
  if (a.fastForward) {
    if (!dryRun) await writeBranchRef(repo, into, theirs, { expected: ours, who: author, message: `merge ${from}: Fast-forward` });
    return { status: 'fast_forward', oid: theirs };
  }
  const tree = await commitTree(repo, theirs);
  if (dryRun) return { status: 'merged', oid: undefined, tree };
  const oid = await writeCommitAndRef({ repo, branch: into, expected: ours, tree, parents: [ours, theirs], author, message });
  return { status: 'merged', oid, tree };
}

type FastResult = { status: 'up_to_date' } | { status: 'fast_forward' } | { status: 'merged'; tree: string };

/** The merge when no path changed on both sides; undefined when the full merge must decide. */
async function fastMerge(repo: GitRepo, ours: string, theirs: string): Promise<FastResult | undefined> {
  const bases = await findMergeBase(repo, [ours, theirs]);
  if (bases.length !== 1) return undefined;
  const base = bases[0]!;
  if (base === theirs) return { status: 'up_to_date' };
  if (base === ours) return { status: 'fast_forward' };
  const [tb, to, tt] = await Promise.all([commitTree(repo, base), commitTree(repo, ours), commitTree(repo, theirs)]);
  const tree = await mergeTrees(repo, tb, to, tt);
  if (tree === NEEDS_FULL_MERGE) return undefined;
  return { status: 'merged', tree: tree ?? (await writeTreeObject(repo, [])) };
}
