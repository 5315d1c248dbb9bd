// A saved chart drawn over fresh rows: the spec's inline data (the rows the answer had) is replaced
// by the rows just read, so the chart and the table always show the same data. An "Automatic" date
// axis is settled here, at the period of those rows (monthly rows get month-wide bars).
import { settleDates } from '../../../src/shared/chart-spec.ts';

interface Rows {
  columns: { name: string }[];
  rows: unknown[][];
}

/** Decimal strings become numbers, so the chart's quantitative scales still apply. */
const numeric = (v: unknown) => (typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v);

/** The spec with `data.values` built from the result. */
export function chartOver(spec: Record<string, unknown>, result: Rows): Record<string, unknown> {
  const values = result.rows.map((r) => Object.fromEntries(result.columns.map((c, i) => [c.name, numeric(r[i])])));
  return { ...settleDates(spec, values), data: { values } };
}
