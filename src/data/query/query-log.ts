// The query log: one row per governed query (who, which connection, which tables, how long, how
// many rows, how it ended), for audit and for ranking tables by usage.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import { NotFound } from '../../errors.ts';
import { QueryRefused } from '../errors.ts';
import { newId } from '../../security/index.ts';
import { byteOrder, type CommitGroup } from '../../store/index.ts';
import type { DataStore, QueryLogRow } from '../tables.ts';
import type { SqlParam } from '../types.ts';

export type QueryStatus = 'ok' | 'refused' | 'failed';

export interface QueryLogEntry {
  orgId: string;
  userId: string;
  connectionId: string;
  environmentId: string | undefined;
  sql: string;
  /** Values bound to `sql`'s placeholders (a dashboard's filters): kept with it, so a rerun binds them again. */
  params?: readonly SqlParam[] | undefined;
  /** `schema.table` names read. */
  tables: string[];
  status: QueryStatus;
  errorCode?: string;
  rowCount: number;
  durationMs: number;
  source: string;
}

export type LoggedQuery = QueryLogRow;

/**
 * Appends one entry, with the tables it read, in one batch, or in `group`'s batch of this turn
 * (committed before the promise settles, so a caller answered after it loses no entry in a crash);
 * returns its id.
 */
export async function logQuery(store: DataStore, clock: Clock, e: QueryLogEntry, group?: CommitGroup): Promise<string> {
  const id = newId(12);
  const entry = store.db.insertInto('query_log').values({
    id,
    org_id: e.orgId,
    user_id: e.userId,
    connection_id: e.connectionId,
    environment_id: e.environmentId ?? null,
    sql: e.sql,
    params: e.params?.length ? JSON.stringify(e.params) : null,
    tables: JSON.stringify(e.tables),
    status: e.status,
    error_code: e.errorCode ?? null,
    row_count: e.rowCount,
    duration_ms: Math.round(e.durationMs),
    source: e.source,
    created_at: clock.now(),
  });
  const tables = [...new Set(e.tables)].map((t) => ({ query_id: id, org_id: e.orgId, connection_id: e.connectionId, table_name: t }));
  const writes = tables.length ? [entry, store.db.insertInto('query_log_tables').values(tables)] : [entry];
  // An entry and its tables are one all-or-nothing batch, alone or inside the group's.
  await (group ? group.batch(writes) : store.batch(writes));
  return id;
}

/** A logged query as it runs again: its statement and the values that were bound to it. */
export type QueryToRerun = LoggedQuery & { boundParams: SqlParam[] };

const PARAM_TYPES = new Set(['text', 'date', 'number']);

/**
 * The values logged with a statement, as a typed list; a list that is not one (edited in the store)
 * is refused like a missing one. The guard then checks them against the statement's placeholders.
 */
export function loggedParams(json: string | null): SqlParam[] {
  if (json === null) return [];
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    list = undefined;
  }
  const typed = (p: unknown) => typeof p === 'object' && p !== null && Object.keys(p).sort().join() === 'type,value' && PARAM_TYPES.has((p as SqlParam).type);
  if (!Array.isArray(list) || list.length === 0 || !list.every(typed)) throw new QueryRefused('parameter', 'The values logged with this query are not a list of bound values');
  return list as SqlParam[];
}

/** A logged query the principal may run again: their own, or any in the organization for an admin. */
export async function loggedQueryToRerun({ store }: { store: DataStore }, principal: Principal, id: string): Promise<QueryToRerun> {
  const logged = await store.one(store.db.selectFrom('query_log').selectAll().where('org_id', '=', principal.orgId).where('id', '=', id));
  // Someone else's query reads as absent, so ids of other people's queries are not confirmed.
  if (!logged || (logged.user_id !== principal.userId && principal.role !== 'admin')) throw new NotFound('Query not found', 'QUERY_NOT_FOUND');
  return { ...logged, boundParams: loggedParams(logged.params) };
}

export interface TableUsage {
  connection_id: string;
  table: string;
  query_count: number;
}

/** Tables of the organization ranked by how many successful queries read them; ties by name (its bytes, on both dialects). */
export async function topTables(store: DataStore, orgId: string, limit = 50): Promise<TableUsage[]> {
  const rows = await store.all(
    store.db
      .selectFrom('query_log_tables as t')
      .innerJoin('query_log as q', 'q.id', 't.query_id')
      .select(['t.connection_id', 't.table_name as table', (eb) => eb.fn.countAll<number>().as('query_count')])
      .where('t.org_id', '=', orgId)
      .where('q.status', '=', 'ok')
      .groupBy(['t.connection_id', 't.table_name'])
      .orderBy('query_count', 'desc')
      .orderBy(byteOrder(store, 't.table_name'))
      .orderBy(byteOrder(store, 't.connection_id'))
      .limit(limit),
  );
  // PostgreSQL's count is a bigint: a number here on both dialects.
  return rows.map((r) => ({ ...r, query_count: Number(r.query_count) }));
}
