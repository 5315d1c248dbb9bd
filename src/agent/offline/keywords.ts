// What a question's words were read as, shared by the readers of a question and of its measure.
import type { Aggregate, Bucket } from './intent.ts';
import type { Mention } from './vocabulary.ts';
import type { WeekDays } from './week-days.ts';

/** Places in a ranking by their words: ORDINALS[1] is "second". */
export const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/**
 * A number of rows asked for ("top 10", "the last 5"): a larger one than SQL's LIMIT takes (a 64-bit
 * integer; JavaScript writes 1e+23 for more digits) asks for every row anyway.
 */
export const rowCount = (digits: string): number => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);

/** Rows asked for without a number ("top products", "latest orders", "biggest orders"): a handful to read. */
export const HANDFUL_ROWS = 10;

/** The words that ask for an aggregate, the first found winning. */
export const AGGREGATES: [RegExp, Aggregate][] = [
  [/\b(how many|number of|count of|count)\b/, 'count'],
  [/\b(average|avg|mean)\b/, 'avg'],
  [/\b(median)\b/, 'median'],
  [/\b(total|sum of|sum|how much)\b/, 'sum'],
  [/\b(maximum|max)\b/, 'max'],
  [/\b(minimum|min)\b/, 'min'],
];

/** The words that group by a period or the day of the week, the first found winning. */
export const BUCKETS: [RegExp, Bucket][] = [
  [/\b(?:by|per|each|every|on each) (?:days? of (?:the )?week|week ?days?)\b/, 'weekday'],
  [/\b(?:by|per|each|every) day\b|\bdaily\b/, 'day'],
  [/\b(?:by|per|each|every) week\b|\bweekly\b|\bweek over week\b/, 'week'],
  [/\b(?:by|per|each|every) month\b|\bmonthly\b|\bmonth (?:by|over) month\b|\bmom\b/, 'month'],
  [/\b(?:by|per|each|every) quarter\b|\bquarterly\b|\bquarter over quarter\b|\bqoq\b/, 'quarter'],
  [/\b(?:by|per|each|every) year\b|\byearly\b|\bannual(?:ly)?\b|\byear (?:by|over) year\b|\byoy\b/, 'year'],
];
// "by channel and quarter": a period after a column grouped by (blanked by then), and "by month and
// country": a column after a period grouped by.
export const AND_BUCKET = /\bby\s+and (day|week|month|quarter|year)\b/;
export const AFTER_BUCKET = /\b(?:by|per) (?:day|week|month|quarter|year) and $/;
// "by signup month", "revenue by signup year": a period of a date named between (blanked by then).
export const DATE_BUCKET = /\bby\s+(day|week|month|quarter|year)\b/;

/** Mentions of the same words: what they may mean (a column name two tables share...). */
export interface Span {
  start: number;
  end: number;
  kind: Mention['kind'];
  ms: Mention[];
}

export interface Keywords {
  /** `handful`: no number was given ("top products"), so the limit is HANDFUL_ROWS. */
  top?: { dir: 'asc' | 'desc'; limit: number; end: number; word: string; handful?: true };
  whichN?: number;
  extreme?: { aggregate: 'min' | 'max'; word: string };
  rank?: { dir: 'asc' | 'desc'; word: string };
  /** "second" in "the second most": the place in the ranking, from 1. */
  ordinal?: { place: number; word: string };
  bucket?: Bucket;
  /** The bucket is of the date named in its words ("by signup month"), which periods apply to as well. */
  datedBucket?: true;
  /** Periods ranked by the measure ("which month had the highest revenue", "top 3 quarters"); `dir` from the words, else from `rank`. */
  rankedBucket?: { dir?: 'asc' | 'desc'; limit?: number; word: string };
  aggregate?: { aggregate: Aggregate; word: string; end: number };
  /** "on weekends": days of the week kept (week-days.ts). */
  weekDays?: WeekDays;
}
