// rerun_agentic_query: runs an answer's queries again, with the caller's permissions, on fresh data.
import type { Principal } from '../../auth/index.ts';
import { NotFound } from '../../errors.ts';
import type { AgentEvent } from '../events.ts';
import type { QueryRunner } from '../ports.ts';
import type { RunRow } from './event-log.ts';

export interface RerunTable {
  df_key: string;
  sql: string;
  connection_id: string;
  columns: string[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
  execution_ms: number;
}

/** Re-runs every table of a run's answer (or only `dfKey`), given the run's events; NotFound when there is none. */
export async function rerunQueries(
  deps: { queries: QueryRunner; rowLimit: number; signal?: AbortSignal },
  principal: Principal,
  run: RunRow,
  events: AgentEvent[],
  dfKey: string | undefined,
): Promise<RerunTable[]> {
  const sqlByCall = new Map<string, Extract<AgentEvent, { type: 'sql' }>>();
  for (const e of events) if (e.type === 'sql' && e.ok) sqlByCall.set(e.call_id, e);
  const tables = events.filter((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table' && (dfKey === undefined || e.df_key === dfKey));
  const targets = tables.flatMap((t) => {
    const q = sqlByCall.get(t.call_id);
    return q && q.connection_id !== 'uploads' ? [{ dfKey: t.df_key, sql: q.sql, connectionId: q.connection_id }] : [];
  });
  if (targets.length === 0) throw new NotFound('This answer has no query to rerun', dfKey ? 'DF_KEY_NOT_FOUND' : 'NO_QUERY_TO_RERUN');
  const out: RerunTable[] = [];
  for (const t of targets) {
    const r = await deps.queries.run({ principal, environmentId: run.environment_id ?? undefined, connectionId: t.connectionId, sql: t.sql, rowLimit: deps.rowLimit, signal: deps.signal });
    out.push({ df_key: t.dfKey, sql: t.sql, connection_id: t.connectionId, columns: r.columns.map((c) => c.name), rows: r.rows.slice(0, 100), row_count: r.rowCount, truncated: r.truncated, execution_ms: r.executionMs });
  }
  return out;
}
