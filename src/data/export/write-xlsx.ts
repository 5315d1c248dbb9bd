// Streams a result into an .xlsx workbook with exceljs' streaming WorkbookWriter: rows are committed
// as they come, and a new sheet starts whenever one reaches the sheet row limit.
import type { Writable } from 'node:stream';
import type { Worksheet } from 'exceljs';
import { AppError } from '../../errors.ts';
import { xlsxCell } from './cell.ts';
import { assertWritable, drained, ExportAborted, finished } from './drain.ts';
import type { ColumnInfo, RowBatch } from './row-batch.ts';

/** Excel's 1,048,576 rows per sheet, less the header row. */
export const EXCEL_DATA_ROWS_PER_SHEET = 1_048_575;
const EXCEL_MAX_COLUMNS = 16_384;

export interface XlsxOptions {
  /** Data rows per sheet before the next sheet starts; default Excel's limit. */
  rowsPerSheet?: number;
  /** Sheets are named `<prefix>1`, `<prefix>2`...; default `Sheet`. */
  sheetPrefix?: string;
  signal?: AbortSignal;
}

export interface XlsxStats {
  rows: number;
  sheets: number;
}

/** Too many columns for one sheet. */
export class ExportTooWide extends AppError {
  constructor(columns: number) {
    super('invalid', 'EXPORT_TOO_WIDE', `A spreadsheet holds at most ${EXCEL_MAX_COLUMNS} columns; this result has ${columns}`);
  }
}

/** Writes `rows` as an .xlsx workbook to `out` (ended when done); resolves with rows, sheets and bytes. */
export async function writeXlsx(rows: AsyncIterable<RowBatch>, columns: readonly ColumnInfo[], out: Writable, options: XlsxOptions = {}): Promise<XlsxStats> {
  const { rowsPerSheet = EXCEL_DATA_ROWS_PER_SHEET, sheetPrefix = 'Sheet', signal } = options;
  if (columns.length > EXCEL_MAX_COLUMNS) throw new ExportTooWide(columns.length);
  if (!Number.isInteger(rowsPerSheet) || rowsPerSheet < 1 || rowsPerSheet > EXCEL_DATA_ROWS_PER_SHEET) throw new RangeError('rowsPerSheet out of range');
  assertWritable(out);
  // exceljs (about 17 MB of memory) loads with the first workbook rather than with the gateway.
  const { default: ExcelJS } = await import('exceljs');
  // Shared strings and styles would be held in memory until the end; inline strings keep it flat.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const types = columns.map((c) => c.type);
  const header = columns.map((c) => c.name);
  let sheets = 0;
  let sheet = newSheet();
  let inSheet = 0;
  let total = 0;

  function newSheet() {
    sheets++;
    const ws = workbook.addWorksheet(`${sheetPrefix}${sheets}`);
    ws.addRow(header).commit();
    return ws;
  }

  for await (const batch of rows) {
    if (signal?.aborted) throw new ExportAborted('The export was cancelled');
    if (out.destroyed) throw new ExportAborted();
    for (const row of batch.rows) {
      if (inSheet === rowsPerSheet) {
        sheet.commit();
        sheet = newSheet();
        inSheet = 0;
      }
      sheet.addRow(types.map((type, i) => xlsxCell(row[i], type))).commit();
      inSheet++;
      total++;
    }
    await backpressure(sheet, out);
  }
  sheet.commit();
  await workbook.commit();
  await finished(out);
  return { rows: total, sheets };
}

/**
 * exceljs never reports backpressure: a sheet's rows go into a buffer (`StreamBuf`) that pushes them,
 * whatever the answer, into the zip entry's input stream. Waiting until that input and `out` drain keeps
 * the backlog to a chunk or two instead of the whole sheet when the reader is slower than the query.
 */
async function backpressure(sheet: Worksheet, out: Writable): Promise<void> {
  const internals = sheet as unknown as { stream?: { pipes?: unknown } };
  const pipes = Array.isArray(internals.stream?.pipes) ? (internals.stream.pipes as Writable[]) : [];
  for (const entry of pipes) {
    // The zip entry input is a readable-stream v2 PassThrough: no `writableNeedDrain` getter there.
    const state = (entry as unknown as { _writableState?: { needDrain?: boolean } })._writableState;
    if (state?.needDrain || entry.writableNeedDrain) await drained(entry, out);
  }
  if (out.writableNeedDrain) await drained(out);
}
