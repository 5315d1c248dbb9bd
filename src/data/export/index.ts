// Streaming exports of query results: CSV and Excel.
export { valueText, xlsxCell } from './cell.ts';
export { ExportAborted } from './drain.ts';
export { copyDuckDbCsv, duckDbCsvCopySql, type DuckDbCsvOptions } from './copy-duckdb-csv.ts';
export { duckDbBatches, duckDbColumns } from './duckdb-batches.ts';
export type { ColumnInfo, RowBatch } from './row-batch.ts';
export { writeCsv, type CsvOptions, type ExportStats } from './write-csv.ts';
export { EXCEL_DATA_ROWS_PER_SHEET, ExportTooWide, writeXlsx, type XlsxOptions, type XlsxStats } from './write-xlsx.ts';
