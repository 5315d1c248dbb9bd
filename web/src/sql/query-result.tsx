// The editor's result: the chat's result table, then the chart controls and the chart they make,
// drawn over the rows just read.
import { lazy, Suspense } from 'react';
import { ResultTable } from '../ask/result-table.tsx';
import { ChartControls } from '../charts/chart-controls.tsx';
import type { ChartSettings } from '../../../src/shared/chart-spec.ts';
import { chartOver } from '../saved/chart-over.ts';
import type { Chart } from './editor-source.ts';
import type { QueryResult } from './use-query-run.ts';

const ChartView = lazy(() => import('../ask/chart-view.tsx').then((m) => ({ default: m.ChartView })));

interface Props {
  result: QueryResult;
  settings: ChartSettings;
  chart: Chart;
  onSettings: (s: ChartSettings) => void;
}

export function QueryResultView({ result, settings, chart, onSettings }: Props) {
  const table = { dfKey: result.query_id, columns: result.columns.map((c) => c.name), rows: result.rows, rowCount: result.row_count, truncated: result.truncated, sql: undefined };
  return (
    <>
      {/* The chat's table, without its downloads: these rows belong to no answer of a chat. A new run
          is a new table (the table keeps the rows it was made with). */}
      <ResultTable key={result.query_id} table={table} chatId="" index={0} readOnly />
      <p className="muted">
        {result.truncated ? `The first ${result.row_count} rows (the row limit). ` : ''}Read in {result.execution_time_ms} ms from {result.tables.join(', ') || 'no table'}.
      </p>
      <ChartControls settings={settings} columns={result.columns} onChange={onSettings} />
      {chart && (
        <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
          <ChartView spec={chartOver(chart, result)} />
        </Suspense>
      )}
    </>
  );
}
