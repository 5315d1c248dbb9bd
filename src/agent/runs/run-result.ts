// The one fold of a run's event log into its result: the REST response of a finished run and the
// MCP `get_result` both read it, so the two cannot tell different stories about one answer.
import type { AgentEvent } from '../events.ts';
import type { RunRow } from './event-log.ts';

export interface RunResultTable {
  dfKey: string;
  /** The title the agent gave the query, else `Table <n>` (the internal df_key means nothing to a person). */
  title: string;
  columns: string[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  /** The query that produced the table, when the log holds it. */
  sql?: string;
}

export interface RunResult {
  /** The `completed` event's status; a run whose log never completed counts as failed. */
  status: 'completed' | 'stopped' | 'failed';
  content: string;
  credits: number;
  tables: RunResultTable[];
  /** `title`: the spec's title, else the chart id. */
  charts: { chartId: string; dfKey: string; title: string; spec: Record<string, unknown> }[];
  queries: { connectionId: string; sql: string; ok: boolean }[];
  /** In the order they happened. */
  errors: { code: string; message: string }[];
}

/** Folds the events of a run (in log order) into its result. */
export function runResult(run: Pick<RunRow, 'answer'>, events: AgentEvent[]): RunResult {
  const result: RunResult = { status: 'failed', content: run.answer ?? '', credits: 0, tables: [], charts: [], queries: [], errors: [] };
  const sqlOf = new Map<string, string>();
  const titleOf = new Map<string, string>();
  let completed = false;
  for (const e of events) {
    if (e.type === 'tool_call') {
      const title = (e.arguments as { title?: unknown } | null)?.title;
      if (typeof title === 'string' && title.trim()) titleOf.set(e.call_id, title.trim());
    } else if (e.type === 'sql') {
      result.queries.push({ connectionId: e.connection_id, sql: e.sql, ok: e.ok });
      sqlOf.set(e.call_id, e.sql);
    } else if (e.type === 'table') {
      const sql = sqlOf.get(e.call_id);
      const title = titleOf.get(e.call_id) ?? `Table ${result.tables.length + 1}`;
      result.tables.push({ dfKey: e.df_key, title, columns: e.columns, rows: e.rows, rowCount: e.row_count, truncated: e.truncated, ...(sql === undefined ? {} : { sql }) });
    } else if (e.type === 'chart') {
      result.charts.push({ chartId: e.chart_id, dfKey: e.df_key, title: typeof e.spec['title'] === 'string' ? e.spec['title'] : e.chart_id, spec: e.spec });
    } else if (e.type === 'error') {
      result.errors.push({ code: e.code, message: e.message });
    } else if (e.type === 'completed' && !completed) {
      // The first `completed` is the answer; later ones cannot happen in one run's log.
      completed = true;
      Object.assign(result, { status: e.status, content: e.content, credits: e.credits ?? 0 });
    }
  }
  return result;
}
