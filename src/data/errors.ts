// Typed failures of the data plane. Refusals carry a machine-readable reason so the agent can
// rewrite its query instead of retrying blindly.
import { AppError, NotFound } from '../errors.ts';
import type { ConnectFailure } from './drivers/connect-failure.ts';

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

/**
 * The statement, rewritten with the row filters of the tables it reads, was refused: a filter breaks
 * it (left unbalanced, calling a denied function), or the rewrite could not be verified. The guard's
 * own message may quote the rewritten text, the filter with the attribute values of the person it
 * runs as, which a dashboard link shows to an anonymous holder running as the sharer: it stays in
 * `cause`; the message quotes nothing.
 */
export class RowFilterRefused extends QueryRefused {
  constructor(cause: QueryRefused) {
    super(cause.reason, "The statement cannot run under the row filters of the tables it reads: rewritten with them, it was refused. Simplify the statement; if it is simple already, an admin can check those tables' row filters");
    this.cause = cause;
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

/** The query kept the warehouse busy longer than its time budget and was stopped there. */
export class QueryTimedOut extends AppError {
  constructor(timeoutMs: number) {
    super('bad_request', 'QUERY_TIMEOUT', `The query ran longer than ${timeoutMs} ms and was stopped; filter or aggregate to make it cheaper`, { timeout_ms: timeoutMs });
  }
}

/** The query was stopped because its caller went away (a closed request, a stopped run). */
export class QueryCancelled extends AppError {
  constructor() {
    super('bad_request', 'QUERY_CANCELLED', 'The query was cancelled');
  }
}

/** The query needed more memory than one query may hold and was stopped. */
export class QueryMemoryExceeded extends AppError {
  constructor(limitMb: number) {
    super('bad_request', 'QUERY_MEMORY_LIMIT', `The query needed more than ${limitMb} MB of memory and was stopped; filter or aggregate to make it smaller`, { memory_mb: limitMb });
  }
}

/** Every query process is taken and none was freed within the query's time budget. */
export class WarehouseBusy extends AppError {
  constructor(message = 'Too many queries are running on file warehouses; try again shortly') {
    super('unavailable', 'WAREHOUSE_BUSY', message);
  }
}

/** The warehouse could not be reached or the connection settings are wrong; `reason` says which, when the driver knows. */
export class WarehouseUnavailable extends AppError {
  constructor(message: string, reason?: ConnectFailure) {
    super('unavailable', 'WAREHOUSE_UNAVAILABLE', message, reason ? { reason } : undefined);
  }
}

/** A warehouse host outside the outbound address policy (or one that does not resolve): refused before connecting. */
export class ConnectionHostRefused extends AppError {
  constructor(host: string, reason: 'refused' | 'unresolved') {
    super(
      'invalid',
      reason === 'refused' ? 'CONNECTION_HOST_REFUSED' : 'CONNECTION_HOST_UNRESOLVED',
      reason === 'refused'
        ? `The warehouse host ${host} is not allowed: this address is not allowed; an operator can allow it with SEXTANT_OUTBOUND_ALLOW`
        : `The warehouse host ${host} does not resolve to an address`,
    );
  }
}
