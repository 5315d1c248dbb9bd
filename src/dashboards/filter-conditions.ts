// A dashboard's filters resolved for one run: the viewer's values where given, else the defaults,
// as conditions on named result fields. Values stay values here; the data plane writes the SQL.
import type { FieldIssue } from '../errors.ts';
import { InvalidDashboard } from './errors.ts';
import type { ResultCondition } from './ports.ts';
import type { DashboardFilter, FilterValue } from './schemas.ts';

/** The last day a date may name: a range ending on it has no end (its next day is no YYYY-MM-DD date). */
const LAST_DAY = '9999-12-31';

/** The day after an ISO date: the exclusive end of a range whose last day is inclusive. */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** One filter's condition, or undefined when it constrains nothing. */
function conditionOf(f: DashboardFilter, given: FilterValue | undefined): ResultCondition | undefined {
  if (f.type === 'date_range') {
    const from = given ? given.from : f.default?.from;
    const to = given ? given.to : f.default?.to;
    if (!from && !to) return undefined;
    // Every day is on or before the last one: such a range is bounded below only.
    const before = to && to !== LAST_DAY ? nextDay(to) : undefined;
    if (!from && !before) return undefined;
    return { filterId: f.id, field: f.field, from: from ?? undefined, before };
  }
  const values = given ? given.values : f.default;
  return values && values.length > 0 ? { filterId: f.id, field: f.field, values } : undefined;
}

/**
 * A value of the other kind than its filter (`values` for a date range, `from`/`to` for values):
 * refused rather than ignored, so that a client never believes a filter applied that did not. An
 * empty list or a null day would constrain nothing either way, and pass (a form may send every key).
 */
function kindIssue(f: DashboardFilter, v: FilterValue, at: (string | number)[]): FieldIssue | undefined {
  if (f.type === 'date_range' && v.values !== undefined && v.values.length > 0) return { loc: [...at, 'values'], msg: `Filter ${f.id} is a date range: give from and to, not values`, type: 'value_error' };
  const given = v.from ? 'from' : v.to ? 'to' : undefined;
  if (f.type === 'values' && given) return { loc: [...at, given], msg: `Filter ${f.id} takes values, not a date range`, type: 'value_error' };
  return undefined;
}

/** The conditions of a run; a value naming no filter of the dashboard, or of the wrong kind, is refused (422). */
export function conditionsFor(filters: DashboardFilter[], values: FilterValue[], loc: (string | number)[] = ['body', 'filters']): ResultCondition[] {
  const byId = new Map(values.map((v) => [v.id, v]));
  values.forEach((v, i) => {
    const f = filters.find((x) => x.id === v.id);
    if (!f) throw new InvalidDashboard([{ loc: [...loc, i, 'id'], msg: 'No filter of the dashboard has this id', type: 'value_error' }]);
    const issue = kindIssue(f, v, [...loc, i]);
    if (issue) throw new InvalidDashboard([issue]);
  });
  return filters.flatMap((f) => conditionOf(f, byId.get(f.id)) ?? []);
}
