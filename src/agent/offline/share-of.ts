// "What percentage of orders were cancelled last month?", "what share of revenue came from web in
// 2025?": the part of a measure that the values named after it keep, divided by the whole that the
// question's other conditions keep ("of web orders": the whole is the web orders). Values named before
// the measure's noun or after its groups ("... by channel in Germany"), periods and comparisons narrow
// the whole; with groups, each group has its share. Without a value between the noun and its groups
// ("the share of revenue by channel in Germany") it is no such question: shares of groups are read as a
// display (units.ts).
import type { ValueMention } from './intent.ts';
import type { Span } from './keywords.ts';
import { isMeasure } from './vocabulary.ts';
import type { Marks } from './words.ts';

const SHARE_OF = /(?:\b(?:percentage|percent|share|proportion|fraction)|%) of\b/;
const GROUPS = /\b(?:by|per|for each|each|across|for every)\b/;

/** The words asking for a share, and where its part's values are: after the measure's noun, before its groups. */
export interface ShareWords {
  word: string;
  after: number;
  until: number;
}

/** The share words, taken from `marks`, when a value after the measure's noun says which part. */
export function readShareOf(spans: Span[], marks: Marks): ShareWords | undefined {
  const m = SHARE_OF.exec(marks.blanked());
  if (!m) return undefined;
  const end = m.index + m[0].length;
  const noun = spans.find((s) => s.start > end && (s.kind === 'table' || s.kind === 'metric' || (s.kind === 'column' && s.ms.some((x) => x.kind === 'column' && isMeasure(x.column)))));
  if (!noun) return undefined;
  const groups = GROUPS.exec(marks.text.slice(noun.end));
  const until = groups ? noun.end + groups.index : marks.text.length;
  if (!spans.some((s) => s.kind === 'value' && s.start > noun.end && s.start < until)) return undefined;
  marks.take(m.index, end);
  return { word: m[0], after: noun.end, until };
}

/** The values of the part (named between the noun and its groups) and those of the whole. */
export function splitValues(values: ValueMention[][], { after, until }: ShareWords): { part: ValueMention[][]; whole: ValueMention[][] } {
  const part = values.filter((ms) => ms.every((v) => v.start > after && v.start < until));
  return { part, whole: values.filter((ms) => !part.includes(ms)) };
}
