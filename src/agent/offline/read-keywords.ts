// The words around a question's mentions that rank, count, bucket or pick an extreme ("top 3", "which
// month", "the earliest", "the second most", "by month", "on weekends", "how many"), read from the text
// with the mentions blanked, before the groups and the measure (read-question.ts).
import type { Bucket } from './intent.ts';
import { AGGREGATES, AND_BUCKET, BUCKETS, DATE_BUCKET, HANDFUL_ROWS, ORDINALS, rowCount, type Keywords } from './keywords.ts';
import { readWeekDays } from './week-days.ts';
import type { Marks } from './words.ts';

const TOP = /\b(top|bottom|first) (\d+)\b/;
// "top products by revenue": a handful, as "top 10" would be.
const TOP_ALONE = /\b(top|bottom)\b(?! \d)/;
const WHICH_N = /\b(?:which|what) (\d+)\b/;
const EXTREME = /\b(earliest|oldest|first|most recent|latest|newest|last|recent)\b(?! \d)/;
// "at least 200", "at most 5" are comparisons (read-filters.ts), not rankings.
const RANK = /(?<!\bat )\b(most|highest|largest|biggest|greatest|best|least|fewest|lowest|smallest|worst)\b/;
const ASCENDING = /^(least|fewest|lowest|smallest|worst)$/;
// "first" is left out: "the first customer" is the earliest one (EXTREME).
const ORDINAL = new RegExp(`\\b(${ORDINALS.slice(1).join('|')}|(?:[2-9]|10)(?:nd|rd|th))(?= (?:most|highest|largest|biggest|greatest|best|least|fewest|lowest|smallest|worst)\\b)`);
// "which month had the highest revenue", "the best month", "top 3 quarters by revenue", "worst weeks", "which day of the week".
const RANKED_BUCKET = /\b(which|what|best|worst|top|bottom)(?: (\d+))? (day(?=s? of (?:the )?week\b)|week ?day|day|week|month|quarter|year)(s?)(?: of (?:the )?week\b)?/;

/** The keywords of a question whose mentions are taken, each with its words taken. */
export function readKeywords(marks: Marks): Keywords {
  const kw: Keywords = {};
  // Before the rankings: "top 3" and "best" are of the periods here.
  const ranked = marks.takeMatch(RANKED_BUCKET);
  if (ranked) {
    const [word, n, plural] = [ranked[1]!, ranked[2], ranked[4] === 's'];
    const bucket = /week ?day|of (?:the )?week$/.test(ranked[0]) ? 'weekday' : (ranked[3] as Bucket);
    const dir = /^(best|top)$/.test(word) ? 'desc' : /^(worst|bottom)$/.test(word) ? 'asc' : undefined;
    const limit = n ? rowCount(n) : /^(top|bottom)$/.test(word) ? HANDFUL_ROWS : plural ? undefined : 1;
    kw.bucket = bucket;
    kw.rankedBucket = { ...(dir ? { dir } : {}), ...(limit !== undefined ? { limit } : {}), word: ranked[0] };
  }
  const top = marks.takeMatch(TOP) ?? marks.takeMatch(TOP_ALONE);
  if (top) kw.top = { dir: top[1] === 'bottom' ? 'asc' : 'desc', limit: top[2] ? rowCount(top[2]) : HANDFUL_ROWS, end: top.index + top[0].length, word: top[0], ...(top[2] ? {} : { handful: true as const }) };
  const which = marks.takeMatch(WHICH_N);
  if (which) kw.whichN = rowCount(which[1]!);
  const extreme = marks.takeMatch(EXTREME);
  if (extreme) kw.extreme = { aggregate: /earliest|oldest|first/.test(extreme[1]!) ? 'min' : 'max', word: extreme[1]! };
  const ordinal = marks.takeMatch(ORDINAL);
  if (ordinal) kw.ordinal = { place: ORDINALS.includes(ordinal[1]!) ? ORDINALS.indexOf(ordinal[1]!) + 1 : parseInt(ordinal[1]!, 10), word: ordinal[1]! };
  const rank = marks.takeMatch(RANK);
  if (rank) kw.rank = { dir: ASCENDING.test(rank[1]!) ? 'asc' : 'desc', word: rank[1]! };
  for (const [re, bucket] of BUCKETS) if (!kw.bucket && marks.takeMatch(re)) kw.bucket = bucket;
  // After the buckets: "by weekday" groups, "on weekdays" keeps.
  const weekDays = readWeekDays(marks);
  if (weekDays) kw.weekDays = weekDays;
  const andBucket = kw.bucket ? null : marks.takeMatch(AND_BUCKET);
  if (andBucket) kw.bucket = andBucket[1] as Bucket;
  const dated = kw.bucket ? null : marks.takeMatch(DATE_BUCKET);
  if (dated) Object.assign(kw, { bucket: dated[1] as Bucket, datedBucket: true });
  for (const [re, aggregate] of AGGREGATES) {
    const m = kw.aggregate ? null : marks.takeMatch(re);
    if (m) kw.aggregate = { aggregate, word: m[1]!, end: m.index + m[0].length };
  }
  return kw;
}
