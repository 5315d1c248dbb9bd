// "Revenue trend over the last 6 months", "orders over time": a measure along time. Unless the
// question names its unit ("weekly revenue trend"), the unit suits the period's length: days over
// two months or less, months up to three years, years beyond; months without a period.
import type { Bucket } from './intent.ts';
import type { Period } from './periods.ts';
import type { Marks } from './words.ts';

const TREND = /\b(?:trends?|trending|over time)\b/;
const DAY_MS = 86_400_000;

/** The unit to group by: `named` when the question gave one, else the trend's; the trend's words taken. */
export function withTrend(named: Bucket | undefined, marks: Marks, period: Period | undefined): Bucket | undefined {
  if (!marks.takeMatch(TREND) || named) return named;
  if (!period?.from || !period.to) return 'month';
  const days = (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS;
  return days <= 62 ? 'day' : days <= 3 * 366 ? 'month' : 'year';
}
