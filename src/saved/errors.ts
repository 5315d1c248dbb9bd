// Failures of saved questions. A question the caller may not read is reported exactly like a
// missing one, so the ids of other people's private questions reveal nothing.
import { Conflict, Forbidden, NotFound } from '../errors.ts';

export class QuestionNotFound extends NotFound {
  constructor() {
    super('Saved question not found', 'SAVED_QUESTION_NOT_FOUND');
  }
}

export class PublishForbidden extends Forbidden {
  constructor() {
    super('Only admins and modelers publish saved questions to the organization', 'PUBLISH_FORBIDDEN');
  }
}

export class EditForbidden extends Forbidden {
  constructor() {
    super('Only the owner or an admin edits a saved question', 'EDIT_FORBIDDEN');
  }
}

export class QuestionEditedMeanwhile extends Conflict {
  constructor() {
    super('The saved question was edited meanwhile; load it again', 'SAVED_QUESTION_CONFLICT');
  }
}
