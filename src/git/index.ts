// The git adapter: branches, trees, commits, diffs and merges of bare repositories, written so that a
// crash never loses or corrupts what was acknowledged. Knows nothing of knowledge kinds.
export { openRepo, createRepoRegistry, branchRef, MAIN_BRANCH } from './repo.ts';
export type { GitRepo, GitAuthor, RepoRegistry } from './repo.ts';
export type { WriteLock, SharedLock, LockTarget } from './lock.ts';
export { createFileLock } from './file-lock.ts';
export { openAdvisoryLock, advisoryKey } from './advisory-lock.ts';
export { resolveRef } from './resolve-ref.ts';
export { refHasHistory, readReflog } from './ref-store.ts';
export type { ReflogEntry } from './ref-store.ts';
export { readFile, readFileVersion } from './read-file.ts';
export { readTree, readBlobs } from './read-tree.ts';
export type { TreeFile } from './read-tree.ts';
export { commitChanges } from './commit-changes.ts';
export type { FileChange, CommitResult, ChangeBuilder } from './commit-changes.ts';
export { pathProblem, segmentProblem, isCleanPath, MAX_SEGMENT_BYTES } from './path-name.ts';
export { listBranches, createBranch, deleteBranch } from './branches.ts';
export { diffRefs } from './diff-refs.ts';
export type { FileDiff, FileStatus } from './diff-refs.ts';
export { mergeBranch } from './merge-branch.ts';
export type { MergeOutcome } from './merge-branch.ts';
export { history, mergeBase, commitExists } from './file-history.ts';
export type { CommitInfo } from './file-history.ts';
export { pushBranch } from './push-branch.ts';
export type { RemoteAuth } from './push-branch.ts';
export { checkRepo, STALE_OBJECT_TMP_MS } from './check-repo.ts';
export type { RepoCheck, RefCheck } from './check-repo.ts';
export { hadHistory } from './repo-history.ts';
export { BranchNotFound, BranchExists, BranchMoved, MergeNotSupported, RefDamaged, RefLocked, RepositoryBusy, RepositoryMissing, InvalidPath } from './errors.ts';
