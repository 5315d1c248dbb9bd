// Drivers hand decimals and big integers over as strings (JSON-friendly); in a spreadsheet they
// should be numbers, so sums and sorting work. Only values that survive the trip exactly are converted.
import type { ColumnInfo, RowBatch } from '../../data/export/index.ts';

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC|INT[248]|FLOAT[48]|SERIAL|BIGSERIAL|MEDIUMINT|NEWDECIMAL|LONGLONG|LONG|SHORT|TINY)\b/i;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** A number when the text is a plain decimal that a double holds to the digits shown (at most 15); else the value. */
export function sheetNumber(v: unknown): unknown {
  if (typeof v !== 'string' || !NUMBER_TEXT.test(v)) return v;
  return v.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15 ? Number(v) : v;
}

/** Batches with the numeric columns' text values turned into numbers. */
export async function* typedForSheet(rows: AsyncIterable<RowBatch>, columns: readonly ColumnInfo[]): AsyncGenerator<RowBatch> {
  const numeric = columns.map((c, i) => (NUMERIC.test(c.type) ? i : -1)).filter((i) => i >= 0);
  for await (const batch of rows) {
    if (numeric.length === 0) {
      yield batch;
      continue;
    }
    for (const row of batch.rows) for (const i of numeric) row[i] = sheetNumber(row[i]);
    yield batch;
  }
}
