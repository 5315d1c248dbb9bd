import type { DuckDBResult } from '@duckdb/node-api';
import type { ColumnInfo, RowBatch } from './row-batch.ts';

/** The columns of a DuckDB result, with DuckDB's type names. */
export function duckDbColumns(result: DuckDBResult): ColumnInfo[] {
  const types = result.columnTypes();
  return result.columnNames().map((name, i) => ({ name, type: String(types[i]) }));
}

/** A (streaming) DuckDB result as RowBatches of plain JS values, one per DuckDB chunk. */
export async function* duckDbBatches(result: DuckDBResult): AsyncIterable<RowBatch> {
  const columns = duckDbColumns(result);
  for await (const rows of result.yieldRowsJs()) yield { columns, rows };
}
