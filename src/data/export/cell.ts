// Turning warehouse values into CSV cells and spreadsheet cells. Drivers hand over plain JS values
// (strings, numbers, bigints, Dates, Buffers, arrays, objects) or value objects with a toString.

const DATE_ONLY = /^DATE$/i;
const LOCAL_TIMESTAMP = /^(TIMESTAMP|DATETIME)(?!.*(TZ|TIME ZONE))/i;
const EXCEL_MAX_TEXT = 32_767;
// Characters XML 1.0 cannot carry: a cell holding one would make the workbook unreadable.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text of a value, the same for CSV and for spreadsheet cells that are not numbers or dates. */
export function valueText(value: unknown, type: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'undefined':
      return '';
    case 'object':
      if (value === null) return '';
      if (value instanceof Date) return dateText(value, type);
      if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
      if (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) return JSON.stringify(value, jsonSafe);
      return String(value);
    default:
      return String(value);
  }
}

function dateText(d: Date, type: string): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  if (DATE_ONLY.test(type)) return iso.slice(0, 10);
  // A timestamp without time zone is a wall-clock reading: no `Z`, as the warehouse prints it.
  if (LOCAL_TIMESTAMP.test(type)) return iso.replace('T', ' ').replace(/(\.000)?Z$/, '');
  return iso;
}

const jsonSafe = (_key: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/** A spreadsheet cell: numbers, booleans and dates stay typed; everything else becomes safe text. */
export function xlsxCell(value: unknown, type: string): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const text = valueText(value, type).replace(XML_INVALID, '');
  return text.length > EXCEL_MAX_TEXT ? text.slice(0, EXCEL_MAX_TEXT) : text;
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC|INT[248])\b/i;

/** What the CSV writer (src/shared/csv.ts) gets of a value: numbers stay numbers, everything else its text. */
export type CsvCell = string | number | bigint;

function csvCell(value: unknown, type: string): CsvCell {
  return typeof value === 'number' || typeof value === 'bigint' ? value : valueText(value, type);
}

/**
 * A CSV cell converter specialised for one column's type: numbers and text skip the type dispatch,
 * dates reuse the text of values already seen (a result repeats few distinct days).
 */
export function csvCellOf(type: string): (value: unknown) => CsvCell {
  if (NUMERIC.test(type)) return (v) => (typeof v === 'number' || typeof v === 'bigint' ? v : csvCell(v, type));
  if (DATE_ONLY.test(type) || LOCAL_TIMESTAMP.test(type)) {
    const seen = new Map<number, string>();
    return (v) => {
      if (!(v instanceof Date)) return csvCell(v, type);
      const key = v.getTime();
      let text = seen.get(key);
      if (text === undefined) {
        text = dateText(v, type);
        if (seen.size > 10_000) seen.clear();
        seen.set(key, text);
      }
      return text;
    };
  }
  return (v) => (typeof v === 'string' ? v : csvCell(v, type));
}
