// The documented data coverage of the date a plan's period applies to: a period wholly outside it
// has no data (the answer says so instead of reporting zero), one partly outside gets a note.
import type { CoverageDoc } from '../ports.ts';
import type { Plan } from './plan.ts';
import type { Period } from './periods.ts';

export type CoverageCheck = { kind: 'none' } | { kind: 'outside'; coverage: CoverageDoc; period: Period } | { kind: 'partial'; coverage: CoverageDoc };

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** How the plan's period relates to the coverage of its date. */
export function checkCoverage(plan: Plan): CoverageCheck {
  const filter = plan.filters.find((f) => f.kind === 'period');
  if (!filter || filter.kind !== 'period') return { kind: 'none' };
  const { table, column } = filter.ref;
  const coverage = table.coverage;
  const covered = coverage?.column ?? (table.metrics ?? []).map((m) => m.time_column).find((c) => c !== undefined && !c.includes('.'));
  if (!coverage || covered !== column.name) return { kind: 'none' };
  const { from, to } = filter.period;
  const end = nextDay(coverage.last);
  // A period open at the start ("before 2024") asks for all there is before its end: not partly covered for that.
  if ((from !== undefined && from >= end) || (to !== undefined && to <= coverage.first)) return { kind: 'outside', coverage, period: filter.period };
  if ((from !== undefined && from < coverage.first) || to === undefined || to > end) return { kind: 'partial', coverage };
  return { kind: 'none' };
}
