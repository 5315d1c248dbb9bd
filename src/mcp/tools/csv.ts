import { toCsv as csvText } from '../../shared/csv.ts';

/** CSV of a header and rows (src/shared/csv.ts), without a line break after the last row. */
export function toCsv(columns: string[], rows: unknown[][]): string {
  return csvText(columns, rows).slice(0, -2);
}
