// How the offline model words its answers.
import type { BuiltQuery } from './build-sql.ts';

const LISTED = 10;

/** Formats a value the way people read numbers. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  if (n === undefined) return String(v).replace(/T00:00:00(\.000)?Z?$/, '').replace(/ 00:00:00$/, '');
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
}

/** The final answer for a query result. */
export function describeResult(built: BuiltQuery, content: Record<string, unknown>): string {
  const columns = ((content['columns'] as { name: string }[] | undefined) ?? []).map((c) => c.name);
  const rows = (content['rows'] as unknown[][] | undefined) ?? [];
  const total = Number(content['row_count'] ?? rows.length);
  const vi = columns.indexOf(built.valueColumn);
  if (built.labelColumn === undefined) return `${built.title}: ${formatValue(rows[0]?.[vi >= 0 ? vi : 0])}.`;
  if (rows.length === 0) return `${built.title}: no matching rows.`;
  const li = columns.indexOf(built.labelColumn);
  const lines = rows.slice(0, LISTED).map((r) => `- ${columns.length > 2 ? r.slice(0, -1).map(formatValue).join(', ') : formatValue(r[li])}: ${formatValue(r[vi])}`);
  const more = total > LISTED ? `\n(${total} rows in total; the table has all of them.)` : '';
  return `${built.title}:\n${lines.join('\n')}${more}`;
}

/** The short wrap-up after a stop: what was done so far. */
export function summarizeSoFar(question: string, results: { name: string; content: Record<string, unknown> }[]): string {
  const sql = [...results].reverse().find((r) => r.name === 'run_sql' && !r.content['error']);
  if (sql) {
    const rows = (sql.content['rows'] as unknown[][] | undefined) ?? [];
    const first = rows[0] ? rows[0].map(formatValue).join(', ') : 'no rows';
    return `Stopped as asked. So far I ran one query for "${question}" and got ${formatValue(sql.content['row_count'] ?? rows.length)} rows (first: ${first}).`;
  }
  const searched = results.some((r) => r.name === 'search_knowledge');
  return `Stopped as asked. ${searched ? 'I had looked up the documentation but not run a query yet.' : 'No work had been done yet.'}`;
}
