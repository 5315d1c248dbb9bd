// Failures of dashboards. A dashboard the caller may not read is reported exactly like a missing one,
// so the ids of other people's private dashboards reveal nothing.
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../errors.ts';

export class DashboardNotFound extends NotFound {
  constructor() {
    super('Dashboard not found', 'DASHBOARD_NOT_FOUND');
  }
}

export class TileNotFound extends NotFound {
  constructor() {
    super('Tile not found', 'DASHBOARD_TILE_NOT_FOUND');
  }
}

/** The tile's saved question is gone or the viewer may not read it. */
export class TileQuestionNotFound extends NotFound {
  constructor() {
    super('Saved question not found', 'SAVED_QUESTION_NOT_FOUND');
  }
}

export class ShareNotFound extends NotFound {
  constructor() {
    super('Shared dashboard not found', 'DASHBOARD_SHARE_NOT_FOUND');
  }
}

export class PublishForbidden extends Forbidden {
  constructor() {
    super('Only admins and modelers publish dashboards to the organization', 'PUBLISH_FORBIDDEN');
  }
}

export class EditForbidden extends Forbidden {
  constructor() {
    super('Only the owner or an admin edits a dashboard', 'EDIT_FORBIDDEN');
  }
}

export class DashboardEditedMeanwhile extends Conflict {
  constructor() {
    super('The dashboard was edited meanwhile; load it again', 'DASHBOARD_CONFLICT');
  }
}

/** Two tiles or two filters with one id, or a run naming a filter the dashboard lacks. */
export class InvalidDashboard extends ValidationFailed {}
