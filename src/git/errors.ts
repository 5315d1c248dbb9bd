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
