// Follow-ups ("and in France?", "what about 2024?", "and by country?", "top 3 only"): a question that opens like
// one, or names no measure and no table of its own, is read together with the chat's previous
// question. What it says replaces what the previous one said about the same thing.
import type { Intent } from './intent.ts';

/** True when a question only makes sense together with the previous one. */
export function isFollowUp(intent: Intent): boolean {
  if (intent.followUp) return true;
  return !intent.explicit && intent.named.length === 0 && (intent.values.length > 0 || intent.period !== undefined || intent.groups.length > 0 || intent.chart !== undefined || intent.ranking !== undefined);
}

/** The previous intent with the follow-up's measure, groups, values, period and ranking in place of its own. */
export function mergeIntents(previous: Intent, next: Intent): Intent {
  const replaced = (values: Intent['values'][number]) => next.values.some((v) => v[0]!.column === values[0]!.column);
  // "and in November?" after "average daily revenue in December" is averaged per day too.
  const perUnit = next.explicit ? next.perUnit : previous.perUnit;
  return {
    measure: next.explicit ? next.measure : previous.measure,
    explicit: previous.explicit || next.explicit,
    groups: next.groups.length > 0 ? next.groups : previous.groups,
    values: [...previous.values.filter((v) => !replaced(v)), ...next.values],
    compares: next.compares.length > 0 ? next.compares : previous.compares,
    period: next.period ?? previous.period,
    ...(perUnit ? { perUnit } : {}),
    ...((next.display ?? previous.display) ? { display: next.display ?? previous.display } : {}),
    ...((next.chart ?? previous.chart) ? { chart: next.chart ?? previous.chart } : {}),
    periodColumns: next.period ? next.periodColumns : previous.periodColumns,
    ranking: next.ranking ?? previous.ranking,
    named: [...previous.named, ...next.named],
    loose: [...previous.loose, ...next.loose],
    unknown: next.unknown,
    followUp: true,
  };
}
