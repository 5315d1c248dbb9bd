// Date parameters of the admin read routes: a day (YYYY-MM-DD, UTC) or an ISO date-time.
import { z } from 'zod';
import { ValidationFailed } from '../errors.ts';

export const DateParam = z.string().max(40).regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'Expected YYYY-MM-DD or an ISO date-time');

/** Milliseconds of a date parameter; an end day (`endOfDay`) includes the whole day. */
export function dateMs(value: string | undefined, field: string, endOfDay: boolean): number | undefined {
  if (value === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new ValidationFailed([{ loc: ['query', field], msg: 'Invalid date', type: 'value_error' }]);
  return dateOnly && endOfDay ? ms + 86_400_000 : ms;
}
