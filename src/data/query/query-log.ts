// The query log: one row per governed query (who, which connection, which tables, how long, how
// many rows, how it ended), for audit and for ranking tables by usage.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import { NotFound } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';

export type QueryStatus = 'ok' | 'refused' | 'failed';

export interface QueryLogEntry {
  orgId: string;
  userId: string;
  connectionId: string;
  environmentId: string | undefined;
  sql: string;
  /** `schema.table` names read. */
  tables: string[];
  status: QueryStatus;
  errorCode?: string;
  rowCount: number;
  durationMs: number;
  source: string;
}

export interface LoggedQuery {
  id: string;
  org_id: string;
  user_id: string | null;
  connection_id: string;
  environment_id: string | null;
  sql: string;
  tables: string;
  status: QueryStatus;
  row_count: number;
  duration_ms: number;
  source: string;
  created_at: number;
}

/** Appends one entry and returns its id. */
export function logQuery(db: Db, clock: Clock, e: QueryLogEntry): string {
  const id = newId(12);
  transact(db, () => {
    db.prepare(
      `INSERT INTO query_log (id, org_id, user_id, connection_id, environment_id, sql, tables, status, error_code, row_count, duration_ms, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, e.orgId, e.userId, e.connectionId, e.environmentId ?? null, e.sql, JSON.stringify(e.tables), e.status, e.errorCode ?? null, e.rowCount, Math.round(e.durationMs), e.source, clock.now());
    const ins = db.prepare('INSERT OR IGNORE INTO query_log_tables (query_id, org_id, connection_id, table_name) VALUES (?, ?, ?, ?)');
    for (const t of e.tables) ins.run(id, e.orgId, e.connectionId, t);
  });
  return id;
}

/** A logged query of the organization, or undefined. */
/** A logged query the principal may run again: their own, or any in the organization for an admin. */
export function loggedQueryToRerun({ db }: { db: Db }, principal: Principal, id: string): LoggedQuery {
  const logged = db.prepare('SELECT * FROM query_log WHERE org_id = ? AND id = ?').get(principal.orgId, id) as LoggedQuery | undefined;
  // Someone else's query reads as absent, so ids of other people's queries are not confirmed.
  if (!logged || (logged.user_id !== principal.userId && principal.role !== 'admin')) throw new NotFound('Query not found', 'QUERY_NOT_FOUND');
  return logged;
}

export interface TableUsage {
  connection_id: string;
  table: string;
  query_count: number;
}

/** Tables of the organization ranked by how many successful queries read them. */
export function topTables(db: Db, orgId: string, limit = 50): TableUsage[] {
  return db
    .prepare(
      `SELECT t.connection_id, t.table_name AS "table", count(*) AS query_count
       FROM query_log_tables t JOIN query_log q ON q.id = t.query_id
       WHERE t.org_id = ? AND q.status = 'ok'
       GROUP BY t.connection_id, t.table_name ORDER BY query_count DESC, t.table_name LIMIT ?`,
    )
    .all(orgId, limit) as TableUsage[];
}
