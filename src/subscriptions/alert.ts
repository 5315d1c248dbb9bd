// Alerts: the first row's value of a column compared with a threshold. A report is sent when the
// condition holds and did not at the previous run (once per crossing); the state is kept on the
// subscription and written in the batch that ends the run. A value that cannot be compared (no such
// column, no row, not a number) is a problem of the run, never a condition that does not hold: the
// column is only known once the query ran, so a run is where a wrong column is caught and reported.
import type { Report } from './ports.ts';
import { numberText } from './report-cells.ts';
import type { Alert } from './schemas.ts';

const TESTS: Record<Alert['op'], (v: number, t: number) => boolean> = {
  '<': (v, t) => v < t,
  '<=': (v, t) => v <= t,
  '>': (v, t) => v > t,
  '>=': (v, t) => v >= t,
  '=': (v, t) => v === t,
  '!=': (v, t) => v !== t,
};

/** Whether the condition holds now and the line that says so, or why the value cannot be compared. */
export type AlertCheck = { holds: boolean; line: string; problem?: undefined } | { problem: string; holds?: undefined; line?: undefined };

const quoted = (name: string) => JSON.stringify(name);
/** A value as the error shows it: short, and text quoted so that a blank or a number-like text is seen as text. */
const shown = (raw: unknown) => (raw === null || raw === undefined ? 'null' : typeof raw === 'string' ? JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw) : String(raw).slice(0, 60));

function asNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  // Drivers answer wide integers as bigint and decimals as text (PostgreSQL numeric).
  if (typeof raw === 'bigint' || (typeof raw === 'string' && raw.trim() !== '')) return Number(raw);
  return NaN;
}

/** Checks the alert on the report's first table. */
export function checkAlert(alert: Alert, report: Report): AlertCheck {
  const tile = report.tiles[0];
  const names = tile?.columns.map((c) => c.name) ?? [];
  const i = names.indexOf(alert.column);
  if (!tile || i < 0) return { problem: `The alert's column ${quoted(alert.column)} is not in the result; its columns are ${names.length ? names.map(quoted).join(', ') : 'none'}` };
  const row = tile.rows[0];
  if (!row) return { problem: `The result has no row: the alert's column ${quoted(alert.column)} has no value to compare` };
  const value = asNumber(row[i]);
  if (!Number.isFinite(value)) return { problem: `The alert's column ${quoted(alert.column)} holds ${shown(row[i])} in the first row, not a number to compare with ${numberText(alert.threshold)}` };
  return { holds: TESTS[alert.op](value, alert.threshold), line: `Alert: ${alert.column} is ${numberText(value)} (${alert.op} ${numberText(alert.threshold)})` };
}
