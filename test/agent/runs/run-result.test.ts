import test from 'ava';
import type { AgentEvent } from '../../../src/agent/index.ts';
import { runResult } from '../../../src/agent/runs/run-result.ts';

const log: AgentEvent[] = [
  { type: 'tool_call', call_id: 'c1', name: 'run_sql', arguments: { connection_id: 'wh', sql: 'SELECT 1', title: ' Revenue by country ' } },
  { type: 'sql', call_id: 'c1', connection_id: 'wh', sql: 'SELECT 1', ok: true },
  { type: 'table', call_id: 'c1', df_key: 'df1', columns: ['a'], rows: [[1]], row_count: 1, truncated: false },
  { type: 'chart', call_id: 'c2', chart_id: 'ch1', df_key: 'df1', spec: { title: 'Revenue' } },
  { type: 'chart', call_id: 'c3', chart_id: 'ch2', df_key: 'df1', spec: {} },
  { type: 'table', call_id: 'c9', df_key: 'df2', columns: ['b'], rows: [], row_count: 0, truncated: true },
  { type: 'error', code: 'X', message: 'first' },
  { type: 'completed', status: 'stopped', answer_uuid: 'a', content: 'the answer', credits: 3, usage: { input_tokens: 1, output_tokens: 1, queries: 1 } },
];

test('a run log folds into its answer, tables with the query and title that produced them (else Table <n>), charts, queries and errors', (t) => {
  const r = runResult({ answer: 'stored' }, log);
  t.is(r.status, 'stopped');
  t.is(r.content, 'the answer');
  t.is(r.credits, 3);
  t.deepEqual(r.tables, [
    { dfKey: 'df1', title: 'Revenue by country', columns: ['a'], rows: [[1]], rowCount: 1, truncated: false, sql: 'SELECT 1' },
    { dfKey: 'df2', title: 'Table 2', columns: ['b'], rows: [], rowCount: 0, truncated: true },
  ]);
  t.deepEqual(r.charts.map((c) => c.title), ['Revenue', 'ch2']);
  t.deepEqual(r.queries, [{ connectionId: 'wh', sql: 'SELECT 1', ok: true }]);
  t.deepEqual(r.errors, [{ code: 'X', message: 'first' }]);
});

test('a log that never completed reads as failed with the stored answer and no credits', (t) => {
  const r = runResult({ answer: 'Interrupted by a restart' }, log.slice(0, 3));
  t.like(r, { status: 'failed', content: 'Interrupted by a restart', credits: 0 });
  t.deepEqual(runResult({ answer: null }, []).content, '');
});
