// The one CSV writer of Sextant (server and CLI): RFC 4180 (comma, CRLF, quotes doubled) by the
// csv-stringify library, with spreadsheet formulas neutralised. A cell whose text starts with = + - @,
// a tab or a carriage return would run as a formula when the file is opened in a spreadsheet (CSV
// injection), so such text gets a leading apostrophe. Numbers are typed values, not text, and stay as
// they are: -5 is a number to a spreadsheet, not a formula.
import { stringify, type Options } from 'csv-stringify/sync';

/** The first characters that make a spreadsheet read a cell as a formula. */
export const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'] as const;
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text made inert for spreadsheets: a leading apostrophe before a formula start. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const OPTIONS: Options = {
  record_delimiter: 'windows',
  // csv-stringify quotes a line break only when it equals the record delimiter; RFC 4180 quotes any.
  quoted_match: /[\r\n]/,
  cast: {
    string: neutraliseFormula,
    boolean: (v) => String(v),
    date: (v) => v.toISOString(),
    object: (v) => neutraliseFormula(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))),
  },
};

/**
 * CSV lines (each ending in CRLF) of rows of cells. Null and undefined become empty fields, strings are
 * neutralised, numbers and bigints are written as they are, dates as ISO 8601, objects as JSON.
 */
export function csvRows(rows: readonly (readonly unknown[])[]): string {
  return rows.length === 0 ? '' : stringify(rows as unknown[][], OPTIONS);
}

/** One CSV line with its CRLF terminator. */
export function csvLine(cells: readonly unknown[]): string {
  return csvRows([cells]);
}

/** A header line and the rows, as one CSV text. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return csvLine(header) + csvRows(rows);
}
