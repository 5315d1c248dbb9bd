// Units and scale a question asks its answer in ("in thousands", "in millions of dollars", "in
// euros", "as a percentage"): how the answer text prints the numbers, never what the query computes.
// A unit the data cannot be read in is refused, not converted: the knowledge holds no exchange rates.
import type { MetricDoc, TableDocument } from '../ports.ts';
import type { Currency, Display } from './display.ts';
import { metricOf, type ColumnRef, type Plan } from './plan.ts';
import { nonAdditive } from './vocabulary.ts';

const FACTORS = { thousands: 1e3, millions: 1e6, billions: 1e9 } as const;
const CURRENCIES: [RegExp, string[]][] = [
  [/^(?:us dollars?|usd)$/, ['USD']],
  [/^dollars?$/, ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD']],
  [/^(?:euros?|eur)$/, ['EUR']],
  [/^(?:pounds?|pounds sterling|gbp)$/, ['GBP']],
  [/^(?:yen|jpy)$/, ['JPY']],
  [/^(?:swiss francs?|chf)$/, ['CHF']],
];
/** The words of a currency, longest first where one starts another. */
export const MONEY = 'us dollars?|usd|dollars?|euros?|eur|pounds sterling|pounds?|gbp|yen|jpy|swiss francs?|chf';
const SCALE = new RegExp(`\\b(?:in|as) (thousands|millions|billions)(?: of (${MONEY}))?\\b`);
const CURRENCY = new RegExp(`\\b(?:in|as) (${MONEY})\\b`);
const SHARE = /\b(?:as (?:a )?(?:percentages?|share of (?:the )?total)|in (?:percent|percentages))\b/;
// "how much of our revenue is from each country" asks for each country's part of the whole, not its
// amount: its words are all known, so the repairs (repair.ts), which read "what share of ... comes from
// each", never see it. The opening words are the display's; the rest is read as "revenue by country".
const PART_FROM_EACH = /^(?:how much|what part|what portion) of\b(?=.* (?:comes?|came|is|was|are|were) (?:from|in) (?:each|every)\b)/;

/** The currency a word of MONEY names ("$" is dollars). */
export const currencyNamed = (word: string): Currency => ({ word, codes: word === '$' ? CURRENCIES[1]![1] : CURRENCIES.find(([re]) => re.test(word))![1] });

/** The units a (normalized) question asks its answer in, if any. */
export function findDisplay(text: string): Display | undefined {
  const span = (r: RegExpExecArray): [number, number] => [r.index, r.index + r[0].length];
  let r: RegExpExecArray | null;
  if ((r = SCALE.exec(text))) {
    const word = r[1] as keyof typeof FACTORS;
    return { scale: { factor: FACTORS[word], word }, ...(r[2] ? { currency: currencyNamed(r[2]) } : {}), span: span(r) };
  }
  if ((r = CURRENCY.exec(text))) return { currency: currencyNamed(r[1]!), span: span(r) };
  if ((r = SHARE.exec(text) ?? PART_FROM_EACH.exec(text))) return { share: true, span: span(r) };
  return undefined;
}

const AGGREGATE_OF = /^\s*(sum|avg|min|max)\s*\(\s*([a-z_][a-z0-9_]*)\s*\)\s*$/i;

/**
 * The currency of a table's column: the format of its governed metrics that add up, average or
 * bound that very column (`SUM(total_amount)` in USD makes total_amount an amount of USD). A column
 * no currency metric reads plainly has no documented currency.
 */
export function columnCurrency(table: TableDocument, column: string): string | undefined {
  const codes = (table.metrics ?? []).filter((m) => AGGREGATE_OF.exec(m.expression)?.[2]?.toLowerCase() === column.toLowerCase()).map((m) => m.format);
  const currencies = new Set(codes.filter((f): f is string => f !== undefined && /^[A-Z]{3}$/.test(f)));
  return currencies.size === 1 ? [...currencies][0] : undefined;
}

const isTemporalRef = (ref: ColumnRef) => /DATE|TIME/i.test(ref.column.type ?? '');

/** The format a plan's measure prints in: the metric's, or a currency column's. */
export function measureFormat(plan: Plan): string | undefined {
  const m = plan.measure;
  if (m.kind === 'rows') return undefined;
  if (plan.share) return 'percent';
  // An average of a count per day or per customer has decimals: 3.4 orders a day is not 3.
  if (m.kind !== 'column') return (plan.perUnit || plan.perEach) && m.metric?.format === 'integer' ? undefined : m.metric?.format;
  return columnCurrency(m.ref.table, m.ref.column.name);
}

/**
 * Why an amount named in a currency ("over 2000 dollars", "over $500") cannot be compared with a
 * measure of this format: a documented format that is another currency, or no money at all. A measure
 * whose currency is not documented is taken in the units the question states.
 */
export function comparedCurrencyProblem(name: string, format: string | undefined, currency: Currency): string | undefined {
  if (format === undefined || currency.codes.includes(format)) return undefined;
  if (!/^[A-Z]{3}$/.test(format)) return `${name} is not documented as an amount of money, so it cannot be compared with ${currency.word}`;
  return `${name} is documented in ${format}, and I cannot convert ${currency.word}`;
}

/** Why the groups a plan keeps cannot be kept by the amount named ("categories with revenue over 1m euros"). */
export const havingProblem = (plan: Plan) => plan.having?.currency && comparedCurrencyProblem(measureName(plan), measureFormat(plan), plan.having.currency);

/** Why a plan's answer cannot be printed in the units asked, or undefined when it can. */
export function displayProblem(plan: Plan, display: Display): string | undefined {
  const m = plan.measure;
  if (m.kind === 'rows') return 'a list of rows has no units, scale or shares';
  if (m.kind === 'column' && isTemporalRef(m.ref)) return 'a date has no units or scale';
  const format = measureFormat(plan);
  if (display.currency) {
    if (!format || !/^[A-Z]{3}$/.test(format)) return `${measureName(plan)} is not documented as an amount of money, so it cannot be given in ${display.currency.word}`;
    if (!display.currency.codes.includes(format)) return `${measureName(plan)} is documented in ${format}, and I cannot convert it to ${display.currency.word}`;
  }
  if (display.scale && format === 'percent') return 'a percentage has no scale of thousands or millions';
  if (display.share) {
    if (display.scale || display.currency) return 'it asks for both a share and an amount';
    if (plan.dimensions.length === 0) return 'a share needs groups to divide the total between ("revenue by channel as a percentage")';
    if (plan.limit !== undefined) return 'a share of the total needs every group, not the top or bottom few';
    if (!addsUp(m)) return `${measureName(plan)} does not add up over groups, so its groups have no share of a total`;
  }
  return undefined;
}

/**
 * Whether a measure adds up: over groups (each group's share of the total) and over days ("average
 * daily ..."). A count, a sum of a column whose documentation does not make it a share or a value of
 * one unit, a metric that is one SUM or COUNT: not a ratio ("SUM(a) / COUNT(*)"), and not a count of
 * distinct values (the customers of a month are not the sum of each day's).
 */
export function addsUp(m: Plan['measure']): boolean {
  if (m.kind === 'count') return true;
  if (m.kind === 'column') return m.aggregate === 'sum' && !nonAdditive(m.ref.column);
  if (m.kind === 'rows') return false;
  const call = /^\s*(?:sum|count)\s*\((?!\s*distinct\b)(.*)\)\s*$/is.exec(m.metric.expression);
  if (!call) return false;
  // The parenthesis that closes the call is the last one.
  let depth = 0;
  for (const ch of call[1]!) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

const measureName = (plan: Plan) => {
  const m = plan.measure;
  const metric: MetricDoc | undefined = metricOf(plan);
  return metric ? metric.name.replace(/_/g, ' ') : m.kind === 'column' ? m.ref.column.name.replace(/_/g, ' ') : `the number of ${plan.subject.name.replace(/_/g, ' ')}`;
};

/** The words stating the units of the numbers in the text: "in thousands of USD", "in USD", "as a share of the total". */
export function displayWords(display: Display, format: string | undefined): string {
  if (display.share) return 'as a share of the total';
  const currency = format && /^[A-Z]{3}$/.test(format) ? format : undefined;
  if (display.scale) return `in ${display.scale.word}${currency ? ` of ${currency}` : ''}`;
  return `in ${currency ?? display.currency!.word}`;
}
