// The period a column of dates is counted in (monthly revenue is all month starts), read from its values
// so that an "Automatic" date axis gets bars a period wide and labels at the period's grain. Values are
// read as Vega reads a temporal field (`new Date(value)`) and in local time, as Vega-Lite's time units
// are, so a value counts as a month start exactly when the drawn chart would put it on one.

/** The periods a date axis can be counted in, coarsest last. */
export type DatePeriod = 'day' | 'month' | 'quarter' | 'year';

const midnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;

/** The coarsest period every value starts: all 1 January is year, all quarter starts quarter, all month starts month, all midnights day; undefined for times of day or no dates. */
export function datePeriodOf(values: readonly unknown[]): DatePeriod | undefined {
  const dates = values.filter((v) => v !== null && v !== undefined && v !== '').map((v) => new Date(v as string | number));
  if (dates.length === 0 || dates.some((d) => Number.isNaN(d.getTime()) || !midnight(d))) return undefined;
  if (!dates.every((d) => d.getDate() === 1)) return 'day';
  if (dates.every((d) => d.getMonth() === 0)) return 'year';
  if (dates.every((d) => d.getMonth() % 3 === 0)) return 'quarter';
  return 'month';
}
