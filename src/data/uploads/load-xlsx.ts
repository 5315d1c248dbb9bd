// DuckDB has no offline Excel reader (the excel extension downloads at runtime), so workbooks are read
// with exceljs and appended into tables: one per sheet, first row as header, types inferred per column.
import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampValue } from '@duckdb/node-api';

type Scalar = string | number | boolean | Date | null;
type ColumnType = 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'VARCHAR';

/** Reads every sheet of `path` and creates a table for each; returns the table names created. */
export async function loadXlsx(conn: DuckDBConnection, path: string, tableFor: (sheet: string, index: number) => string): Promise<string[]> {
  // exceljs (about 17 MB of memory) loads with the first workbook rather than with the gateway.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const tables: string[] = [];
  for (const [index, sheet] of workbook.worksheets.entries()) {
    const rows: Scalar[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1).map(scalar)));
    const [header, ...data] = rows;
    if (!header) continue;
    const width = Math.max(header.length, ...data.map((r) => r.length));
    const names = uniqueColumns(Array.from({ length: width }, (_, i) => String(header[i] ?? '').trim() || `column${i + 1}`));
    const types = names.map((_, i) => inferType(data.map((r) => r[i] ?? null)));
    const table = tableFor(sheet.name, index);
    await conn.run(`CREATE TABLE ${quoteIdent(table)} (${names.map((n, i) => `${quoteIdent(n)} ${types[i]}`).join(', ')})`);
    const appender = await conn.createAppender(table);
    for (const row of data) {
      for (let i = 0; i < width; i++) append(appender, row[i] ?? null, types[i]!);
      appender.endRow();
    }
    appender.closeSync();
    tables.push(table);
  }
  return tables;
}

/** A cell's value: formulas give their result, rich text and hyperlinks their text, errors nothing. */
function scalar(v: unknown): Scalar {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if (typeof v === 'object') {
    const o = v as { result?: unknown; richText?: { text: string }[]; text?: unknown; error?: unknown };
    if ('result' in o) return scalar(o.result);
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return scalar(o.text);
    if (o.error !== undefined) return null;
  }
  return String(v);
}

function inferType(values: Scalar[]): ColumnType {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return 'VARCHAR';
  if (present.every((v) => typeof v === 'number')) return 'DOUBLE';
  if (present.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  if (present.every((v) => v instanceof Date)) return 'TIMESTAMP';
  return 'VARCHAR';
}

type Appender = Awaited<ReturnType<DuckDBConnection['createAppender']>>;

function append(a: Appender, v: Scalar, type: ColumnType): void {
  if (v === null) return a.appendNull();
  if (type === 'DOUBLE') return a.appendDouble(v as number);
  if (type === 'BOOLEAN') return a.appendBoolean(v as boolean);
  if (type === 'TIMESTAMP') return a.appendTimestamp(timestampValue(BigInt((v as Date).getTime()) * 1000n));
  a.appendVarchar(v instanceof Date ? v.toISOString() : String(v));
}

function uniqueColumns(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = n.toLowerCase();
    const count = (seen.get(k) ?? 0) + 1;
    seen.set(k, count);
    return count === 1 ? n : `${n}_${count}`;
  });
}

/** A double-quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
