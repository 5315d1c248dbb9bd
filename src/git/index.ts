// The git adapter: branches, trees, commits, diffs and merges of bare repositories. Knows nothing of
// knowledge kinds.
export { openRepo, createRepoRegistry, branchRef, MAIN_BRANCH } from './repo.ts';
export type { GitRepo, GitAuthor, RepoRegistry } from './repo.ts';
export { createWriteLock } from './lock.ts';
export type { WriteLock } from './lock.ts';
export { resolveRef } from './resolve-ref.ts';
export { readFile } from './read-file.ts';
export { readTree, readBlobs } from './read-tree.ts';
export type { TreeFile } from './read-tree.ts';
export { commitChanges, isCleanPath } from './commit-changes.ts';
export type { FileChange, CommitResult, ChangeBuilder } from './commit-changes.ts';
export { listBranches, createBranch, deleteBranch } from './branches.ts';
export { diffRefs } from './diff-refs.ts';
export type { FileDiff, FileStatus } from './diff-refs.ts';
export { mergeBranch } from './merge-branch.ts';
export type { MergeOutcome } from './merge-branch.ts';
export { history, mergeBase, commitExists } from './file-history.ts';
export type { CommitInfo } from './file-history.ts';
export { pushBranch } from './push-branch.ts';
export type { RemoteAuth } from './push-branch.ts';
export { BranchNotFound, BranchExists, BranchMoved, MergeNotSupported } from './errors.ts';
