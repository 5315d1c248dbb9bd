// "Revenue growth by month in 2025", "month over month", "QoQ": a change over the one period a
// question named, by a shorter unit than it, read as each unit's change from the one before; and groups
// ranked by their change ("which channel grew the most in 2025"). The plan carries it as `steps`;
// build-sql.ts writes it with LAG, wording.ts states each row's change.
import { isPeriod, type Intent } from './intent.ts';
import type { Dimension, Plan } from './plan.ts';
import type { PeriodBucket } from './periods.ts';

const UNIT_MONTHS: Partial<Record<PeriodBucket, number>> = { month: 1, quarter: 3, year: 12 };

/**
 * "Revenue growth by month in 2025", "monthly revenue change in Q3 2025": a change over the one
 * period a question named, grouped by a shorter unit than it, is each unit's change from the one
 * before (LAG in SQL), not the named period's from the period before it. The period read starts one
 * unit earlier, so that the first unit has a change too. By month, quarter or year only: a week
 * straddles the start of most periods.
 */
export function stepwise(intent: Intent): Intent {
  const change = intent.change;
  const group = intent.groups.find((g) => g.kind === 'bucket');
  const bucket = group?.kind === 'bucket' && isPeriod(group.bucket) ? group.bucket : undefined;
  const months = bucket && UNIT_MONTHS[bucket];
  if (!change || !bucket || !months) return intent;
  // "Revenue growth by year": every whole unit of the data, the one still running left out (a part of
  // it would read as a fall); the first has no change.
  if (!intent.period && change.today) {
    const to = unitStart(change.today, months, 0);
    return { ...intent, period: { to, label: `before ${to}`, span: [0, 0] }, change: { ...change, steps: { bucket } } };
  }
  const named = change.named;
  if (!named?.from || bucket === intent.period?.compare) return intent;
  return { ...intent, period: { ...named, from: unitStart(named.from, months, 1) }, change: { ...change, steps: { bucket, from: named.from } } };
}

/**
 * The steps a ranking of groups by their change is worked out from, in SQL: each group's later period
 * with its change from the earlier one (LAG), ranked by that change ("which channel had the highest
 * revenue growth in 2025"). Two neighbouring periods compared and one group only; not a rank within
 * groups nor a place further down.
 */
export function rankedChange(intent: Intent, dimensions: Dimension[]): NonNullable<Plan['steps']> | undefined {
  const period = intent.period;
  const unit = period?.compare;
  if (!intent.ranking || !unit || !period.to || period.between || intent.change!.steps || dimensions.length !== 2) return undefined;
  if (intent.ranking.within || intent.ranking.offset) return undefined;
  return { bucket: unit, from: unitStart(period.to, UNIT_MONTHS[unit]!, 1) };
}

/** The first day of the unit of `months` months holding `day`, `back` units earlier (a negative `back`: later). */
export function unitStart(day: string, months: number, back: number): string {
  const [y, m] = day.split('-').map(Number);
  const start = Math.floor((m! - 1) / months) * months - back * months;
  return new Date(Date.UTC(y!, start, 1)).toISOString().slice(0, 10);
}
