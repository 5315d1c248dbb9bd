// "What percentage of orders were cancelled last month?", "what share of revenue came from web in
// 2025?": the part of a measure that the values named after it keep, divided by the whole that the
// question's other conditions keep ("of web orders": the whole is the web orders). Values named before
// the measure's noun, periods and comparisons narrow the whole; with groups, each group has its share.
// Without a value after the noun ("the share of revenue by channel") it is no such question: shares of
// groups are read as a display (units.ts).
import type { ValueMention } from './intent.ts';
import type { Span } from './keywords.ts';
import { isMeasure } from './vocabulary.ts';
import type { Marks } from './words.ts';

const SHARE_OF = /(?:\b(?:percentage|percent|share|proportion|fraction)|%) of\b/;

/** The words asking for a share, and where the measure's noun ends (the part's values come after it). */
export interface ShareWords {
  word: string;
  after: number;
}

/** The share words, taken from `marks`, when a value after the measure's noun says which part. */
export function readShareOf(spans: Span[], marks: Marks): ShareWords | undefined {
  const m = SHARE_OF.exec(marks.blanked());
  if (!m) return undefined;
  const end = m.index + m[0].length;
  const noun = spans.find((s) => s.start > end && (s.kind === 'table' || s.kind === 'metric' || (s.kind === 'column' && s.ms.some((x) => x.kind === 'column' && isMeasure(x.column)))));
  if (!noun || !spans.some((s) => s.kind === 'value' && s.start > noun.end)) return undefined;
  marks.take(m.index, end);
  return { word: m[0], after: noun.end };
}

/** The values of the part (named after the noun) and those of the whole. */
export function splitValues(values: ValueMention[][], after: number): { part: ValueMention[][]; whole: ValueMention[][] } {
  const part = values.filter((ms) => ms.every((v) => v.start > after));
  return { part, whole: values.filter((ms) => !part.includes(ms)) };
}
