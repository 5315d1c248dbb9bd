// Follow-ups ("and in France?", "what about 2024?", "and by country?", "top 3 only"): a question that opens like
// one, or names no measure and no table of its own, is read together with the chat's previous
// question. What it says replaces what the previous one said about the same thing.
import type { Intent } from './intent.ts';
import { MONTHS, type Period } from './periods.ts';
import { unitStart } from './steps.ts';

/** True when a question only makes sense together with the previous one. */
export function isFollowUp(intent: Intent): boolean {
  if (intent.followUp) return true;
  return !intent.explicit && intent.named.length === 0 && (intent.values.length > 0 || intent.period !== undefined || intent.weekDays !== undefined || intent.groups.length > 0 || intent.chart !== undefined || intent.ranking !== undefined);
}

/** Earlier values with the later ones of their columns in their place. */
function merged(earlier: Intent['values'], later: Intent['values']): Intent['values'] {
  const replaced = (values: Intent['values'][number]) => later.some((v) => v[0]!.column === values[0]!.column);
  return [...earlier.filter((v) => !replaced(v)), ...later];
}

/** The previous intent with the follow-up's measure, groups, values, period and ranking in place of its own. */
export function mergeIntents(previous: Intent, next: Intent): Intent {
  // "and in November?" after "average daily revenue in December" is averaged per day too; "and
  // returned?" after "what percentage of orders were cancelled" asks for the returned ones' share.
  const perUnit = next.explicit ? next.perUnit : previous.perUnit;
  const perEach = next.explicit ? next.perEach : previous.perEach;
  const partColumns = new Set(next.explicit ? [] : previous.share?.part.map((v) => v[0]!.column));
  const ofPart = next.values.filter((v) => partColumns.has(v[0]!.column));
  const share = next.explicit ? next.share : previous.share && { ...previous.share, part: merged(previous.share.part, ofPart) };
  const own = next.values.filter((v) => !ofPart.includes(v));
  return {
    measure: next.explicit ? next.measure : previous.measure,
    explicit: previous.explicit || next.explicit,
    groups: next.groups.length > 0 ? next.groups : previous.groups,
    values: merged(previous.values, own),
    compares: next.compares.length > 0 ? next.compares : previous.compares,
    period: (next.period && before(next.period, previous.period)) ?? next.period ?? previous.period,
    ...((next.weekDays ?? previous.weekDays) ? { weekDays: next.weekDays ?? previous.weekDays } : {}),
    ...(perUnit ? { perUnit } : {}),
    ...(perEach ? { perEach } : {}),
    ...(share ? { share } : {}),
    // "and in Germany?" after "customers with more than 5 orders" keeps the count; a new one replaces it.
    ...((next.related ?? previous.related) ? { related: next.related ?? previous.related } : {}),
    ...((next.having ?? previous.having) ? { having: next.having ?? previous.having } : {}),
    ...((next.display ?? previous.display) ? { display: next.display ?? previous.display } : {}),
    ...((next.chart ?? previous.chart) ? { chart: next.chart ?? previous.chart } : {}),
    // The dates the earlier question named keep applying ("revenue by signup year", then "and in 2025?").
    periodColumns: next.periodColumns.length > 0 ? next.periodColumns : previous.periodColumns,
    ranking: next.ranking ?? previous.ranking,
    named: [...previous.named, ...next.named],
    loose: [...previous.loose, ...next.loose],
    unknown: next.unknown,
    followUp: true,
  };
}

/**
 * "and the month before?", "what about the previous quarter?" after a question about a period within
 * one month, quarter or year ("orders in March 2025", then "the previous quarter": Q4 2024): the unit
 * before the one holding it, not the one before today. After a longer period, or one of weeks or days,
 * the words keep their reading from today ("the previous month" is last month).
 */
function before(relative: Period, earlier: Period | undefined): Period | undefined {
  const unit = relative.relative;
  if ((unit !== 'month' && unit !== 'quarter' && unit !== 'year') || !earlier?.from || !earlier.to || earlier.compare) return undefined;
  const months = unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1;
  if (earlier.to > unitStart(earlier.from, months, -1)) return undefined;
  const [from, to] = [unitStart(earlier.from, months, 1), unitStart(earlier.from, months, 0)];
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const name = unit === 'year' ? `${fy}` : unit === 'quarter' ? `Q${Math.floor((fm - 1) / 3) + 1} ${fy}` : `${MONTHS[fm - 1]!.charAt(0).toUpperCase()}${MONTHS[fm - 1]!.slice(1)} ${fy}`;
  return { from, to, label: `in ${name}`, span: relative.span };
}
