// The filters a question's words ask for: listed values kept or left out ("in Germany", "excluding
// web", "not cancelled"), two values compared ("web vs mobile"), and comparisons of a measure column
// or of a table's only one ("total amount over 500", "orders over $1,000", "between 100 and 500").
import type { Currency } from './display.ts';
import type { ColumnMention, CompareOp, Intent, ValueMention } from './intent.ts';
import type { Span } from './keywords.ts';
import { currencyNamed, MONEY } from './units.ts';
import { forms, isMeasure } from './vocabulary.ts';
import type { Marks } from './words.ts';

const COMPARES: Record<string, CompareOp> = {
  over: '>', above: '>', 'greater than': '>', 'more than': '>', exceeding: '>', 'at least': '>=', 'no less than': '>=', 'not less than': '>=',
  under: '<', below: '<', 'less than': '<', 'fewer than': '<', 'at most': '<=', 'no more than': '<=', 'not more than': '<=',
};
// An amount as people write it: "1000", "$5,000" (normalized to $5000), "1.5k", "2m", "2000 dollars"
// ("2 thousand dollars" reads as 2000 first, language.ts). Groups: the dollar sign, digits, scale, currency.
const AMOUNT = String.raw`(\$)?(\d+(?:\.\d+)?)(k|m)?\b(?: (${MONEY})\b)?`;
// Longest words first: "no more than" before "more than".
const COMPARE_AFTER = new RegExp(`^\\s*(?:is |was |are |were |of )?(${Object.keys(COMPARES).sort((a, b) => b.length - a.length).join('|')})\\s+${AMOUNT}`);
const BETWEEN_AFTER = new RegExp(`^\\s*(?:is |was |are |were |of )?between\\s+${AMOUNT}\\s+and\\s+${AMOUNT}`);
const amount = (digits: string, scale: string | undefined) => Number(digits) * (scale === 'k' ? 1e3 : scale === 'm' ? 1e6 : 1);
/** The currency of the amounts matched from `at` on: the last word or dollar sign named. */
function currencyOf(m: RegExpExecArray, at: number, count: number): { currency?: Currency } {
  const words = Array.from({ length: count }, (_, i) => m[at + 4 * i + 3] ?? m[at + 4 * i]).filter((w): w is string => w !== undefined);
  return words.length > 0 ? { currency: currencyNamed(words.at(-1)!) } : {};
}

const VALUES_COMPARED = /^ (?:vs|versus|compared (?:to|with)|against) $/;
// "the revenue split between web and mobile": "between" before the first value, "and" before the second.
const BETWEEN_VALUES = /\bbetween $/;

/** The column of two listed values compared ("web vs mobile"), with the words between taken. */
export function valuesCompared(text: string, spans: Span[], marks: Marks): ColumnMention | undefined {
  const values = spans.filter((s) => s.kind === 'value');
  for (let i = 0; i + 1 < values.length; i++) {
    const [a, b] = [values[i]!, values[i + 1]!];
    const shared = (a.ms as ValueMention[]).find((m) => (b.ms as ValueMention[]).some((n) => n.column === m.column));
    const between = text.slice(a.end, b.start) === ' and ' ? BETWEEN_VALUES.exec(text.slice(0, a.start)) : null;
    if (!shared || !(between || VALUES_COMPARED.test(text.slice(a.end, b.start)))) continue;
    marks.take(between?.index ?? a.end, a.start);
    marks.take(a.end, b.start);
    return { kind: 'column', table: shared.table, column: shared.column, start: a.start, end: b.end };
  }
  return undefined;
}

/** "over $1,000", "at least 5k" at the start of `after`: the comparison, its amount and the length of its words. */
export function compareAfter(after: string): { op: CompareOp; value: number; length: number; currency?: Currency } | undefined {
  const m = COMPARE_AFTER.exec(after);
  return m ? { op: COMPARES[m[1]!]!, value: amount(m[3]!, m[4]), length: m[0].length, ...currencyOf(m, 2, 1) } : undefined;
}

/**
 * Comparisons after a measure column ("total amount over 500", "price between 10 and 50"), or after
 * a table with exactly one ("orders over $1000": their total amount; of a table with a price and a
 * cost it is not one reading, and the words stay unread).
 */
export function readCompares(text: string, spans: Span[], marks: Marks, used: Set<Span>): Intent['compares'] {
  const out: Intent['compares'] = [];
  // Words another reader took ("countries with revenue over 1m", kept-groups.ts) are not compared again.
  const open = marks.blanked();
  for (const s of spans) {
    const columns = s.kind === 'column' ? (s.ms as ColumnMention[]).filter((m) => isMeasure(m.column)) : s.kind === 'table' ? onlyMeasure(s) : s.kind === 'metric' ? columnOfMetric(text, s) : [];
    if (columns.length === 0) continue;
    const after = open.slice(s.end);
    const between = BETWEEN_AFTER.exec(after);
    const m = between ? null : COMPARE_AFTER.exec(after);
    if (between) {
      const currency = currencyOf(between, 1, 2);
      out.push({ columns, op: '>=', value: amount(between[2]!, between[3]), ...currency }, { columns, op: '<=', value: amount(between[6]!, between[7]), ...currency });
    } else if (m) out.push({ columns, op: COMPARES[m[1]!]!, value: amount(m[3]!, m[4]), ...currencyOf(m, 2, 1) });
    else continue;
    marks.take(s.end, s.end + (between ?? m)![0].length);
    if (s.kind === 'column' || s.kind === 'metric') used.add(s);
  }
  return out;
}

/**
 * "orders with an order total over 20", where a metric is named order_total too: a metric is a total
 * and compares with nothing row by row, so the words are its table's column of the same name.
 */
export function columnOfMetric(text: string, s: Span): ColumnMention[] {
  const words = text.slice(s.start, s.end);
  return s.ms.flatMap((m) => m.table.columns.filter((c) => isMeasure(c) && forms(c.name).includes(words)).map((column) => ({ kind: 'column' as const, table: m.table, column, start: s.start, end: s.end })));
}

function onlyMeasure(s: Span): ColumnMention[] {
  return s.ms.flatMap((m) => {
    const measures = m.table.columns.filter(isMeasure);
    return measures.length === 1 ? [{ kind: 'column' as const, table: m.table, column: measures[0]!, start: s.start, end: s.end }] : [];
  });
}

// Words that leave the value after them out: "not cancelled", "excluding the web channel", "non-web",
// "not in Germany", "except those in France", "customers outside Germany".
const NOT_BEFORE = /\b(?:not|excluding|except(?: for)?|other than|apart from|without|outside(?: of)?|non-?)(?: those| ones)?(?: (?:in|from|of|on|at|via|through))?(?: the)? ?$/;
const LIST_BETWEEN = /^(?: and| or|,)(?: the)? $/;

/** Value filters by column; a value after a negation (or listed after a value that had one) is left out. */
export function readValues(text: string, spans: Span[], used: Set<Span>, marks: Marks): ValueMention[][] {
  const byColumn = new Map<unknown, ValueMention[]>();
  let previous: { span: Span; negated: boolean } | undefined;
  for (const s of spans.filter((x) => x.kind === 'value')) {
    const first = s.ms[0] as ValueMention;
    const not = NOT_BEFORE.exec(text.slice(0, s.start));
    if (not) marks.take(not.index, s.start);
    const listed = previous?.negated === true && (previous.span.ms[0] as ValueMention).column === first.column && LIST_BETWEEN.test(text.slice(previous.span.end, s.start));
    const negated = not !== null || listed;
    const mentions = (s.ms as ValueMention[]).map((m): ValueMention => (negated ? { ...m, negated: true } : m));
    byColumn.set(first.column, [...(byColumn.get(first.column) ?? []), ...mentions]);
    used.add(s);
    previous = { span: s, negated };
  }
  return [...byColumn.values()];
}
