/** RFC 4180 CSV of a header and rows; null and undefined become empty fields. */
export function toCsv(columns: string[], rows: unknown[][]): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns, ...rows].map((r) => r.map(field).join(',')).join('\r\n');
}
