// RFC 4180 CSV for query results.

/** One CSV field: quoted when it holds a comma, quote, or line break. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line with its CRLF terminator. */
export function csvLine(values: unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

/** A header line and the rows. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return csvLine(header) + rows.map(csvLine).join('');
}
