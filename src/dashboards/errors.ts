// Failures of dashboards. A dashboard the caller may not read is reported exactly like a missing one,
// so the ids of other people's private dashboards reveal nothing.
import { AppError, Conflict, Forbidden, NotFound, ValidationFailed } from '../errors.ts';

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

/**
 * The tile's saved question is gone or the viewer may not read it. A write names the tile refused
 * (`data.loc`, as a 422 would, and `data.tile_id` when the tile has one), so that a client can point
 * at it among fifty.
 */
export class TileQuestionNotFound extends AppError {
  constructor(tile?: { loc: (string | number)[]; tileId: string | undefined }) {
    super('not_found', 'SAVED_QUESTION_NOT_FOUND', 'Saved question not found', tile && { loc: tile.loc, ...(tile.tileId === undefined ? {} : { tile_id: tile.tileId }) });
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

/** Sharing takes what editing takes; the refusal says which was refused. */
export class ShareForbidden extends Forbidden {
  constructor() {
    super('Only the owner or an admin shares a dashboard', 'SHARE_FORBIDDEN');
  }
}

/**
 * A tile's query failed in the warehouse, told to a viewer who did not write its SQL: the warehouse's
 * message quotes the governed statement, with the row filters and attribute values of the person it
 * ran as, so only its code is shown. The original stays as `cause` for the server's log.
 */
export class TileQueryFailed extends AppError {
  constructor(cause: AppError) {
    super('bad_request', cause.code, `The tile's query failed in the warehouse (${cause.code}); its owner can open the saved question to see why`);
    this.cause = cause;
  }
}

export class DashboardEditedMeanwhile extends Conflict {
  constructor() {
    super('The dashboard was edited meanwhile; load it again', 'DASHBOARD_CONFLICT');
  }
}

/** Two tiles or two filters with one id, or a run naming a filter the dashboard lacks. */
export class InvalidDashboard extends ValidationFailed {}
