// Expected and observed answers of evaluation questions: a finite number (with its currency sign,
// thousands separators, scale word or percent sign) or a calendar date. Shared by the service (suite
// validation, scoring) and the command-line tool (`sextant eval validate`, offline); imports nothing.

/** A number as written ("$1.2M", "25%", "1,234.5") or a date (`YYYY-MM-DD`). */
export type AnswerValue = { kind: 'number'; value: number; percent: boolean; currency: boolean } | { kind: 'date'; value: string };

const SIGN = '[-+\u2212]';
const SYMBOL = '[$€£¥₹]';
const CODE = '(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|BRL|CNY)';
const SCALE = '(?:thousand|million|billion|trillion|bn|mn|k|m|b)';

/**
 * One number in text (flags `gi` for a search, anchored for an exact parse): sign, currency, digits
 * with or without thousands separators, fraction, exponent, scale word, percent, trailing currency code.
 */
export const NUMBER_SOURCE =
  `(?<neg>${SIGN})?(?<cur>${SYMBOL}\\s?|${CODE}\\s)?(?<neg2>${SIGN})?(?<int>\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d+)(?<frac>\\.\\d+)?(?<exp>e[-+]?\\d{1,3})?` +
  `(?:\\s?(?<scale>${SCALE})(?![\\p{L}\\d]))?(?<pct>\\s?(?:%|percent(?![\\p{L}])))?(?:\\s(?<code>${CODE})(?![\\p{L}]))?`;

const SCALES: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, b: 1e9, bn: 1e9, trillion: 1e12 };

/** The number a match of NUMBER_SOURCE names, or undefined when it is not finite. */
export function numberOfMatch(groups: Record<string, string | undefined>): Extract<AnswerValue, { kind: 'number' }> | undefined {
  const digits = `${groups['int']!.replace(/,/g, '')}${groups['frac'] ?? ''}${groups['exp'] ?? ''}`;
  const negative = [groups['neg'], groups['neg2']].filter((s) => s && s !== '+').length % 2 === 1;
  const scale = groups['scale'] ? SCALES[groups['scale'].toLowerCase()]! : 1;
  const value = (negative ? -1 : 1) * Number(digits) * scale;
  if (!Number.isFinite(value)) return undefined;
  return { kind: 'number', value: value === 0 ? 0 : value, percent: !!groups['pct'], currency: !!(groups['cur'] || groups['code']) };
}

const EXACT_NUMBER = new RegExp(`^${NUMBER_SOURCE}$`, 'iu');
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` when year, month and day name a real calendar day. */
export function isoDate(year: number, month: number, day: number): string | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || year > 9999 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Parses a whole answer as written in a suite file: a finite number (text or number) or an ISO date. */
export function parseAnswerValue(answer: unknown): AnswerValue | undefined {
  if (typeof answer === 'number') return Number.isFinite(answer) ? { kind: 'number', value: answer, percent: false, currency: false } : undefined;
  if (typeof answer !== 'string') return undefined;
  const text = answer.trim();
  const date = ISO_DATE.exec(text);
  if (date) {
    const iso = isoDate(Number(date[1]), Number(date[2]), Number(date[3]));
    return iso ? { kind: 'date', value: iso } : undefined;
  }
  const m = EXACT_NUMBER.exec(text);
  return m?.groups ? numberOfMatch(m.groups) : undefined;
}

/** A number found in text, with where it was. */
export interface FoundNumber {
  value: Extract<AnswerValue, { kind: 'number' }>;
  index: number;
  text: string;
}

/** Every number in a text, in order. A sign glued to a word or a number ("COVID-19", "2020-2024") is a hyphen, not a minus. */
export function findNumbers(text: string): FoundNumber[] {
  const out: FoundNumber[] = [];
  for (const m of text.matchAll(new RegExp(NUMBER_SOURCE, 'giu'))) {
    if (!m.groups) continue;
    const before = text[m.index - 1];
    let groups: Record<string, string | undefined> = m.groups;
    let index = m.index;
    if (groups['neg'] && before !== undefined && /\d/.test(before)) {
      // A range ("2020-2024"): the second number, unsigned.
      groups = { ...groups, neg: undefined };
      index += 1;
    } else if (before !== undefined && /[\p{L}\d_.]/u.test(before)) continue; // inside a word, an id or a version ("COVID-19", "v1.2")
    const value = numberOfMatch(groups);
    if (value) out.push({ value, index, text: m[0].slice(index - m.index) });
  }
  return out;
}
