// Typed failures of the data plane. Refusals carry a machine-readable reason so the agent can
// rewrite its query instead of retrying blindly.
import { AppError, NotFound } from '../errors.ts';

/** Why the SQL guard refused a statement. */
export type RefusalReason =
  | 'parse_error'
  | 'empty'
  | 'multiple_statements'
  | 'not_select'
  | 'writable_cte'
  | 'select_into'
  | 'locking_clause'
  | 'table_function'
  | 'forbidden_function'
  | 'system_catalog'
  | 'ungoverned_table';

/** The SQL guard refused the statement; `reason` says what to change. */
export class QueryRefused extends AppError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super('bad_request', 'QUERY_REFUSED', message, { reason });
  }
}

export class ConnectionNotFound extends NotFound {
  constructor() {
    super('Connection not found', 'CONNECTION_NOT_FOUND');
  }
}

/** The warehouse rejected or failed the query (syntax, missing column, timeout...). */
export class QueryFailed extends AppError {
  constructor(message: string, code = 'QUERY_FAILED') {
    super('bad_request', code, message);
  }
}

/** The warehouse could not be reached or the connection settings are wrong. */
export class WarehouseUnavailable extends AppError {
  constructor(message: string) {
    super('unavailable', 'WAREHOUSE_UNAVAILABLE', message);
  }
}
