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
  | 'ungoverned_table'
  /** MySQL/MariaDB executable comments (slash-star-bang): code to the server, a comment to any parser. */
  | 'executable_comment'
  /** Text the parser and the warehouse could read differently (`--1` in MySQL, UESCAPE, a NUL byte). */
  | 'ambiguous_syntax'
  /** Bind parameters and session variables: nothing binds them here. */
  | 'parameter'
  /** A row generator (generate_series, range, ...) whose size is not a small constant. */
  | 'unbounded_function'
  /** A view (or partition) over a table whose row filter applies to the caller. */
  | 'view_over_filtered_table'
  /** A function defined in the warehouse, called by a user whose row filter applies: it could read hidden rows. */
  | 'warehouse_function'
  /** The statement parses, but its rewritten form could not be verified to mean the same. */
  | 'unsupported_syntax';

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
