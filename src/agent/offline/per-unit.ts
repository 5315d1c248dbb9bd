// "Average daily revenue in December", "average monthly orders in 2025": the period's total divided by
// the days (or weeks, months...) it spans, one number, not the average of each day's orders grouped by
// day. Counted in calendar units, days without a sale included; a period still running counts up to
// today. Months, quarters and years only over a period of whole ones ("average monthly revenue over the
// last 30 days" has no count of months to divide by).
import type { PerUnit } from './intent.ts';
import type { UnitCount } from './plan.ts';
import type { Span } from './keywords.ts';
import type { Period, PeriodBucket } from './periods.ts';
import { addsUp } from './units.ts';
import { isMeasure } from './vocabulary.ts';
import type { Marks } from './words.ts';

const ADJECTIVES: Record<string, PeriodBucket> = { daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annual: 'year' };
// "average daily revenue", "mean monthly orders", "daily average revenue".
const PER_UNIT = /\b(?:(?:average|avg|mean) (daily|weekly|monthly|quarterly|yearly|annual)|(daily|weekly|monthly|quarterly|yearly|annual) (?:average|avg|mean))\b/;
// "average number of orders per day", "how many orders per day on average", "on average, how many
// orders a week": the average apart from its unit, read in the text the knowledge's words left.
const AVERAGE_APART = /\b(?:average|avg|mean)\b|\bon average\b/;
const PER_BUCKET = /\b(?:per|a|each) (day|week|month|quarter|year)\b/;
const WORDS: Record<PeriodBucket, string> = { day: 'daily', week: 'weekly', month: 'monthly', quarter: 'quarterly', year: 'yearly' };

const today = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/**
 * "Average daily revenue", "average number of orders per day": the unit a total is averaged over,
 * its words taken. Apart from its unit only over a count or a metric that adds up: "average order
 * value per month" is each month's value of its metric, and "average amount per month" of a column
 * each month's average amount, as before.
 */
export function readPerUnit(spans: Span[], marks: Marks, nowMs: number): PerUnit | undefined {
  const adjective = marks.takeMatch(PER_UNIT);
  if (adjective) return { bucket: ADJECTIVES[(adjective[1] ?? adjective[2])!]!, word: adjective[0], today: today(nowMs) };
  const text = marks.blanked();
  const average = AVERAGE_APART.exec(text);
  const unit = average && PER_BUCKET.exec(text);
  if (!average || !unit || !measuresATotal(spans)) return undefined;
  marks.take(average.index, average.index + average[0].length);
  marks.take(unit.index, unit.index + unit[0].length);
  const bucket = unit[1] as PeriodBucket;
  return { bucket, word: `average ${WORDS[bucket]}`, today: today(nowMs) };
}

/** The question's metrics add up, or, with none, it names no measure column: it counts rows. */
function measuresATotal(spans: Span[]): boolean {
  const mentions = spans.flatMap((s) => s.ms);
  const metrics = mentions.flatMap((m) => (m.kind === 'metric' ? [m.metric] : []));
  if (metrics.length > 0) return metrics.every((metric) => addsUp({ kind: 'metric', metric }));
  return mentions.every((m) => m.kind !== 'column' || !isMeasure(m.column));
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const MONTHS_IN: Partial<Record<PeriodBucket, number>> = { month: 1, quarter: 3, year: 12 };

/** What the period's total is divided by, or why it cannot be. */
export function countUnits(per: PerUnit, period: Period | undefined): UnitCount | string {
  if (!period?.from || !period.to) return `it asks for an average per ${per.bucket} but names no period to divide by (for example "${per.word} revenue in 2025")`;
  if (period.from > per.today) return 'it asks for an average over a period that has not begun';
  const end = Math.min(dayOf(period.to), dayOf(per.today) + DAY_MS);
  const range = { from: period.from, until: isoOf(end - DAY_MS) };
  const days = (end - dayOf(period.from)) / DAY_MS;
  if (per.bucket === 'day') return { bucket: 'day', units: days, ...range };
  if (per.bucket === 'week') return { bucket: 'week', units: days / 7, ...range };
  const size = MONTHS_IN[per.bucket]!;
  const months = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
  const whole = (iso: string) => iso.endsWith('-01') && months(iso) % size === 0;
  if (!whole(period.from) || !whole(period.to)) return `it asks for an average per ${per.bucket} over a period that is not whole ${per.bucket}s`;
  // A running period counts the unit it is in (this year on 15 January: one month so far).
  return { bucket: per.bucket, units: Math.ceil((months(range.until) + 1 - months(period.from)) / size), ...range };
}

/** The period as far as its units were counted: a running period ends today, in the query as in the division. */
export function countedPeriod(period: Period, units: UnitCount): Period {
  const end = isoOf(dayOf(units.until) + DAY_MS);
  return period.to && end < period.to ? { ...period, to: end } : period;
}
