import { AppError, Conflict, NotFound } from '../errors.ts';

export class BranchNotFound extends NotFound {
  constructor(readonly branch: string) {
    super(`Branch ${branch} not found`, 'BRANCH_NOT_FOUND');
  }
}

export class BranchExists extends Conflict {
  constructor(branch: string) {
    super(`Branch ${branch} already exists`, 'BRANCH_EXISTS');
  }
}

/** The branch moved between reading it and writing it (only possible when writers bypass the lock). */
export class BranchMoved extends Conflict {
  constructor(branch: string) {
    super(`Branch ${branch} changed concurrently`, 'BRANCH_MOVED');
  }
}

/** Histories isomorphic-git cannot merge (several merge bases, file-versus-folder). */
export class MergeNotSupported extends AppError {
  constructor(reason: string) {
    super('conflict', 'MERGE_NOT_SUPPORTED', `These branches cannot be merged automatically: ${reason}`);
  }
}

/** A ref whose file is empty or unreadable and that its reflog could not restore. */
export class RefDamaged extends AppError {
  constructor(
    readonly ref: string,
    readonly problem: string,
  ) {
    super(
      'unavailable',
      'REPOSITORY_DAMAGED',
      `${ref} is damaged (${problem}) and was not recovered from its reflog; an operator must repair the repository (npm run knowledge:check -- --repair, see docs/production.md)`,
      { ref },
    );
  }
}

/** A ref's lock file is held outside the repository lock: by a git command an operator runs, or left by a crashed writer without a shared lock (the start-up check removes it). */
export class RefLocked extends AppError {
  constructor(ref: string) {
    super('unavailable', 'REF_LOCKED', `${ref} is locked by another writer; try again`, { ref });
  }
}

/** A path git cannot hold or people cannot check out; `problem` says why. */
export class InvalidPath extends AppError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super('invalid', 'INVALID_PATH', `Invalid file name ${JSON.stringify(path)}: ${problem}`, { path, problem });
  }
}

/** Another process held the repository's write lock for longer than a write waits. */
export class RepositoryBusy extends AppError {
  constructor() {
    super('unavailable', 'REPOSITORY_BUSY', 'The knowledge repository is busy with another writer; try again');
  }
}

/** A repository folder that is gone while the database shows it held knowledge (its environments). */
export class RepositoryMissing extends AppError {
  constructor(readonly key: string) {
    super(
      'unavailable',
      'REPOSITORY_DAMAGED',
      `The knowledge repository of ${key} is missing while the database lists its environments; an operator must restore it (npm run knowledge:check, see docs/production.md)`,
      { ref: 'refs/heads/main' },
    );
  }
}

/** An object on disk that is empty or does not hash to its name (a disk fault, a torn copy): never trusted. */
export class ObjectDamaged extends AppError {
  constructor(readonly oid: string) {
    super(
      'unavailable',
      'REPOSITORY_DAMAGED',
      `Object ${oid} of the knowledge repository is damaged; an operator must repair the repository (npm run knowledge:check -- --repair, see docs/production.md)`,
      { object: oid },
    );
  }
}
