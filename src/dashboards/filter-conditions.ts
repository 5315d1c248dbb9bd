// A dashboard's filters resolved for one run: the viewer's values where given, else the defaults,
// as conditions on named result fields. Values stay values here; the data plane writes the SQL.
import { InvalidDashboard } from './errors.ts';
import type { ResultCondition } from './ports.ts';
import type { DashboardFilter, FilterValue } from './schemas.ts';

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
    return { filterId: f.id, field: f.field, from: from ?? undefined, before: to ? nextDay(to) : undefined };
  }
  const values = given ? given.values : f.default;
  return values && values.length > 0 ? { filterId: f.id, field: f.field, values } : undefined;
}

/** The conditions of a run; a value naming no filter of the dashboard is refused (422). */
export function conditionsFor(filters: DashboardFilter[], values: FilterValue[], loc: (string | number)[] = ['body', 'filters']): ResultCondition[] {
  const byId = new Map(values.map((v) => [v.id, v]));
  values.forEach((v, i) => {
    if (!filters.some((f) => f.id === v.id)) throw new InvalidDashboard([{ loc: [...loc, i, 'id'], msg: 'No filter of the dashboard has this id', type: 'value_error' }]);
  });
  return filters.flatMap((f) => conditionOf(f, byId.get(f.id)) ?? []);
}
