// Alerts: the first row's value of a column compared with a threshold. A report is sent when the
// condition holds and did not at the previous run (once per crossing); the state is kept on the
// subscription and written in the batch that ends the run.
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

/** Whether the condition holds now, and the line that says so; a missing column or a non-number never holds. */
export function checkAlert(alert: Alert, report: Report): { holds: boolean; line: string } {
  const tile = report.tiles[0];
  const i = tile?.columns.findIndex((c) => c.name === alert.column) ?? -1;
  const raw = i >= 0 ? tile?.rows[0]?.[i] : undefined;
  const value = typeof raw === 'number' ? raw : typeof raw === 'bigint' || (typeof raw === 'string' && raw.trim() !== '') ? Number(raw) : NaN;
  const holds = Number.isFinite(value) && TESTS[alert.op](value, alert.threshold);
  return { holds, line: `Alert: ${alert.column} is ${Number.isFinite(value) ? numberText(value) : 'not a number'} (${alert.op} ${numberText(alert.threshold)})` };
}
