// "Revenue growth in 2025", "how much did orders increase this quarter vs last quarter": two
// periods compared (periods.ts), the change from the earlier to the later one stated in
// the answer's text (wording.ts). Presentation only: the query is the comparison's, a row for each
// period. A period still running is not compared with a whole one (half a month against a month is
// no growth).
import { withNeighbour, type Period, type PeriodBucket } from './periods.ts';
import type { Marks } from './words.ts';

// "growth compared to last year", "how did revenue change from last month" name the earlier period: it is
// compared with the one after it, not with the one before.
const REFERENCE = /\b(?:compared? (?:to|with)|comparing (?:to|with)|vs|versus|against|than|from|since|over|on) $/;
const CHANGE = /\b(growth|grow|grew|grown|growing|change|changed|increase|increased|decrease|decreased|decline|declined|difference)\b/;
// "month over month", "YoY": a change from each period to the next; its unit is read as a bucket (read-question.ts), so its words stay.
const EACH_OVER = /\b(?:(week|month|quarter|year) over \1|mom|qoq|yoy)\b/;
// Without a period, a change is read only by a unit named: "revenue growth by year", "monthly growth", "year over year".
const UNIT = /\b(?:(?:by|per|each|every) (?:month|quarter|year)|monthly|quarterly|yearly|annual|(?:month|quarter|year) over (?:month|quarter|year)|mom|qoq|yoy)\b/;

/** The change words, taken from `marks`, and whether the later period is still running on `today`. */
export interface ChangeWords {
  word: string;
  running: boolean;
  /** The one period the question named when the change added the one before it ("growth in 2025": 2025). */
  named?: Period;
  /** "revenue growth by month in 2025": each month's change from the one before, in SQL (steps.ts). */
  steps?: { bucket: PeriodBucket; from?: string };
  /** The day the question was read, when it names no period ("revenue growth by year": whole years up to today's). */
  today?: string;
}

/**
 * The change words of a question and the two periods they compare: the ones it names ("2025 vs
 * 2024"), or its one whole year, quarter or month with the one before ("growth in 2025").
 */
export function readChange(period: Period | undefined, marks: Marks, nowMs: number): { period?: Period; change: ChangeWords } | undefined {
  const reference = period && !period.compare ? REFERENCE.exec(marks.text.slice(0, period.span[0])) : null;
  const compared = period?.compare ? period : period && withNeighbour(period, reference ? 'after' : 'before');
  const blanked = marks.blanked();
  // Without a period, "difference" is between things named ("monthly revenue difference between web and mobile"), not over time.
  const over = period ? compared?.to !== undefined : UNIT.test(blanked) && !/\bdifference\b/.test(blanked);
  if (!over || (!CHANGE.test(blanked) && !EACH_OVER.test(blanked))) return undefined;
  const word = marks.takeMatch(CHANGE)?.[1] ?? 'change';
  if (reference) marks.take(reference.index, reference.index + reference[0].length);
  // No period: the change from each unit to the next over the data (steps.ts), if the question names the unit.
  if (!compared?.to) return { change: { word, running: false, today: new Date(nowMs).toISOString().slice(0, 10) } };
  const tomorrow = new Date(nowMs + 86_400_000).toISOString().slice(0, 10);
  return { period: compared, change: { word, running: compared.to > tomorrow, ...(period!.compare ? {} : { named: period! }) } };
}
