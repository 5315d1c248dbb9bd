// Days of the week that keep rows: "orders on weekends", "revenue on weekdays in 2025", "weekend
// orders", "sales on Saturdays", "working days". A condition on the date the period would apply to,
// by its ISO day of the week (Monday 1 to Sunday 7), beside any period. Grouping by the day of the
// week ("by weekday", "which day of the week") is read before this, as a bucket (read-question.ts).
import type { Marks } from './words.ts';

/** The ISO days of the week kept, with the words the answer says them in ("on weekends"). */
export interface WeekDays {
  days: number[];
  label: string;
}

const NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
// A day's name only in the plural ("on saturdays"): "on monday" names one date, which is not read here.
const DAYS = new RegExp(`\\b(?:(?:on|at|over|during|for) )?(?:the )?(?:(weekends?)|(weekdays?|week days|business days|working days)|(${NAMES.join('|')})s)\\b`);

/** The days of the week the question keeps, with their words taken. */
export function readWeekDays(marks: Marks): WeekDays | undefined {
  const m = marks.takeMatch(DAYS);
  if (!m) return undefined;
  if (m[1]) return { days: [6, 7], label: 'on weekends' };
  if (m[2]) return { days: [1, 2, 3, 4, 5], label: 'on weekdays' };
  const day = NAMES.indexOf(m[3]!);
  return { days: [day + 1], label: `on ${m[3]!.charAt(0).toUpperCase()}${m[3]!.slice(1)}s` };
}
