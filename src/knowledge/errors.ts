import { AppError, Conflict, Forbidden, NotFound, ValidationFailed, type FieldIssue } from '../errors.ts';

export class EnvironmentNotFound extends NotFound {
  constructor() {
    super('Environment not found', 'ENVIRONMENT_NOT_FOUND');
  }
}

/** Names are unique within an organization, ignoring case, so that a name picks one environment. */
export class EnvironmentNameTaken extends Conflict {
  constructor(name: string) {
    super(`An environment named "${name}" already exists`, 'ENVIRONMENT_NAME_TAKEN', { name });
  }
}

export class ItemNotFound extends NotFound {
  constructor(path: string) {
    super(`No knowledge file ${path}`, 'KNOWLEDGE_ITEM_NOT_FOUND');
  }
}

export class ItemExists extends Conflict {
  constructor(path: string) {
    super(`${path} already exists`, 'KNOWLEDGE_ITEM_EXISTS', { file: path });
  }
}

export class CommitNotFound extends NotFound {
  constructor() {
    super('Commit not found', 'COMMIT_NOT_FOUND');
  }
}

export class KnowledgeReadOnly extends Forbidden {
  constructor(message = 'Only admins and modelers may change knowledge') {
    super(message, 'KNOWLEDGE_READ_ONLY');
  }
}

/** The organization's setting refuses direct writes to production: a change goes through an environment and its merge. */
export class ProductionThroughEnvironments extends AppError {
  constructor() {
    super(
      'forbidden',
      'PRODUCTION_THROUGH_ENVIRONMENTS',
      'This organization changes production only through environments (setting "Changes to production only through environments"): create an environment, make the change there and merge it',
      { setting: 'production_through_environments' },
    );
  }
}

export class EnvironmentsForbidden extends Forbidden {
  constructor() {
    super('Environments are for admins and modelers', 'ENVIRONMENTS_FORBIDDEN');
  }
}

export class MergeForbidden extends Forbidden {
  constructor() {
    super('Merging to production needs the permission "Can merge changes to production"', 'MERGE_FORBIDDEN');
  }
}

/** The merge met conflicts; `data.conflicts` lists the files. */
export class MergeConflicts extends Conflict {
  constructor(readonly conflicts: string[]) {
    super('The environment conflicts with production', 'MERGE_CONFLICTS', { conflicts });
  }
}

export class MirrorNotConfigured extends Conflict {
  constructor() {
    super('Mirroring to a git remote is not configured', 'MIRRORING_OFF');
  }
}

export class TargetSyncUnavailable extends AppError {
  constructor() {
    super('unavailable', 'TARGET_SYNC_UNAVAILABLE', 'Metadata sync of warehouse targets is not available');
  }
}

/** A 422 issue that also names the knowledge file. */
export interface FileIssue extends FieldIssue {
  file: string;
}

/** A 422 naming the file and the field. */
export function invalidFile(file: string, issues: { loc: (string | number)[]; msg: string; type: string }[]): ValidationFailed {
  const withFile: FileIssue[] = issues.map((i) => ({ ...i, msg: `${file}: ${i.msg}`, file }));
  return new ValidationFailed(withFile, `Invalid knowledge file ${file}`);
}

/** `confirm` must be exactly true. */
export function requireConfirm(confirm: unknown, where: 'body' | 'query'): void {
  if (confirm !== true) {
    throw new ValidationFailed([{ loc: [where, 'confirm'], msg: 'confirm must be true', type: 'value_error' }]);
  }
}

/** If-Match named another version than the item's current one (or the item is gone). */
export class VersionMismatch extends AppError {
  constructor(path: string, current: string | null) {
    super(
      'precondition_failed',
      'KNOWLEDGE_VERSION_MISMATCH',
      current ? `${path} changed since the version you read; its current version is ${current}` : `${path} no longer exists`,
      { file: path, current_version: current },
    );
  }
}

/** A save based on an older version changed a field that was changed differently since. */
export class EditConflict extends Conflict {
  constructor(path: string, current: string, fields: string[]) {
    super(`${path} was changed by someone else in the same fields (${fields.join(', ')}); reload it and apply your change again`, 'KNOWLEDGE_EDIT_CONFLICT', {
      file: path,
      current_version: current,
      fields,
    });
  }
}
