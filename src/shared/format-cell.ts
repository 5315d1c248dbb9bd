// How a result table shows its values, in the web client's grid and in report mails: numbers with
// thousands separators (ids, codes and years as they are), dates at the grain of the query (`Jan 2024`,
// `2025 Q2`, `2024`) or without a midnight time. Units come only from the knowledge: a column showing a
// governed metric carries the metric's format (a currency, a percentage); nothing else is guessed from
// names. The raw values stay in the data (downloads, copy, sort). Imports nothing: the web client
// bundles it.

export type Grain = 'year' | 'quarter' | 'month' | 'day' | 'time';

export interface ColumnFormat {
  kind: 'number' | 'identifier' | 'date' | 'text';
  /** For dates: the grain shown. */
  grain?: Grain;
  /** For numbers: the fraction digits shown (the most any value of the column needs, at most 2). */
  fractionDigits?: number;
  /** For numbers of a governed metric: its currency (ISO code), or a percentage (the value is the ratio). */
  currency?: string;
  percent?: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// Columns whose numbers are names, not amounts: no separators (`2024`, not `2,024`; `10115`, not `10,115`).
const IDENTIFIER = /(^|_|\b)(id|key|code|zip|postal_?code|phone|year|number|no|sku|ean|isbn)$/i;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// A bigint (a count from a report's warehouse) is a number while it is exact as one.
function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : undefined;
  return typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v.trim()) ? Number(v) : undefined;
}

/** The grain a query truncates its dates to (`date_trunc('month', …)`, `strftime('%Y-%m', …)`), when it names exactly one. */
export function grainOfSql(sql: string | undefined): Grain | undefined {
  if (!sql) return undefined;
  const units = new Set([...sql.matchAll(/date_trunc\s*\(\s*'(\w+)'/gi)].map((m) => m[1]!.toLowerCase()));
  if (/strftime\s*\(\s*'%Y-%m'/i.test(sql)) units.add('month');
  const known = [...units].filter((u): u is Grain => ['year', 'quarter', 'month', 'day'].includes(u));
  return known.length === 1 && units.size === 1 ? known[0] : undefined;
}

/** The finest grain the dates of a column need, read from their values. */
function grainOfValues(dates: RegExpExecArray[]): Grain {
  if (dates.some((d) => (d[4] ?? '00') !== '00' || (d[5] ?? '00') !== '00' || (d[6] ?? '00') !== '00')) return 'time';
  if (dates.some((d) => d[3] !== '01')) return 'day';
  return 'month';
}

/** How a column is shown, from its name, its values, the query's grain and the metric format the knowledge gives it. */
export function columnFormat(name: string, values: unknown[], sqlGrain?: Grain, metricFormat?: string): ColumnFormat {
  const present = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (present.length === 0) return { kind: 'text' };
  if (metricFormat && present.every((v) => asNumber(v) !== undefined)) return metricColumn(metricFormat, present);
  const dates = present.map((v) => (typeof v === 'string' ? DATE.exec(v.trim()) : null));
  if (dates.every((d) => d !== null)) {
    const found = grainOfValues(dates as RegExpExecArray[]);
    // The query's grain wins when the values agree with it (a month truncation gives first days).
    const grain = sqlGrain && (found === 'month' || (found === 'day' && sqlGrain === 'day')) ? sqlGrain : found;
    return { kind: 'date', grain };
  }
  const numbers = present.map(asNumber);
  if (numbers.every((n) => n !== undefined)) {
    if (IDENTIFIER.test(name) && numbers.every((n) => Number.isInteger(n))) return { kind: 'identifier' };
    const fractionDigits = numbers.some((n) => !Number.isInteger(n)) ? 2 : 0;
    return { kind: 'number', fractionDigits };
  }
  return { kind: 'text' };
}

/**
 * The fraction digits a list of values is shown with, all alike: `least` when any value needs them
 * (13.0 % beside 13.7 %, not 13 %), none when no value does (75 %, 25 %), and more, up to `most`, while
 * values that differ would read alike (4.96 %, 5.02 %, 5.04 %, not 5.0 % three times). `scale` is what a
 * value is multiplied by as shown (100 for a percentage).
 */
export function listDigits(values: number[], least: number, most: number, scale = 1): number {
  const shown = values.filter(Number.isFinite).map((v) => v * scale);
  let digits = shown.some((v) => !Number.isInteger(Number(v.toFixed(least)))) ? least : 0;
  const distinct = new Set(shown).size;
  while (digits < most && new Set(shown.map((v) => v.toFixed(digits))).size < distinct) digits++;
  return digits;
}

/** A governed metric's column: its currency (cents shown), a percentage, or whole or decimal numbers. */
function metricColumn(format: string, values: unknown[]): ColumnFormat {
  if (/^[A-Z]{3}$/.test(format)) return { kind: 'number', currency: format, fractionDigits: 2 };
  if (format === 'percent') return { kind: 'number', percent: true, fractionDigits: listDigits(values.map((v) => asNumber(v) ?? NaN), 1, 3, 100) };
  if (format === 'integer') return { kind: 'number', fractionDigits: 0 };
  return { kind: 'number', fractionDigits: values.some((v) => !Number.isInteger(asNumber(v))) ? 2 : 0 };
}

function formatDate(m: RegExpExecArray, grain: Grain): string {
  const [, y, mo, d, h, mi] = m;
  const month = MONTHS[Number(mo) - 1] ?? mo;
  switch (grain) {
    case 'year':
      return y!;
    case 'quarter':
      return `${y} Q${Math.floor((Number(mo) - 1) / 3) + 1}`;
    case 'month':
      return `${month} ${y}`;
    case 'day':
      return `${Number(d)} ${month} ${y}`;
    case 'time':
      return `${Number(d)} ${month} ${y} ${h ?? '00'}:${mi ?? '00'}`;
  }
}

/** One value as the table shows it. */
export function formatCell(v: unknown, format: ColumnFormat, locale?: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  if (format.kind === 'date' && typeof v === 'string') {
    const m = DATE.exec(v.trim());
    return m ? formatDate(m, format.grain ?? 'day') : v;
  }
  if (format.kind === 'number') {
    const n = asNumber(v);
    if (n === undefined) return String(v);
    const digits = format.fractionDigits ?? 0;
    const style = format.currency ? { style: 'currency' as const, currency: format.currency } : format.percent ? { style: 'percent' as const } : {};
    return n.toLocaleString(locale, { ...style, minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  return String(v);
}
