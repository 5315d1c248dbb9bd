// Calendar dates in text and in result cells: ISO (`2024-03-01`, with or without a time), and the
// written forms "March 1, 2024", "1 March 2024" and "Mar 1 2024".
import { isoDate } from '../../shared/answer-value.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?';
const PATTERNS: { re: RegExp; parts: (m: RegExpExecArray) => [number, number, number] }[] = [
  { re: /(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d-])/g, parts: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'), parts: (m) => [Number(m[3]), monthOf(m[1]!), Number(m[2])] },
  { re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi'), parts: (m) => [Number(m[3]), monthOf(m[2]!), Number(m[1])] },
];

const monthOf = (name: string) => MONTHS.indexOf(name.toLowerCase().slice(0, 3)) + 1;

/** A date found in text: the day and the span it covers. */
export interface FoundDate {
  value: string;
  index: number;
  length: number;
}

/** Every date in a text, in order of appearance. */
export function findDates(text: string): FoundDate[] {
  const out: FoundDate[] = [];
  for (const { re, parts } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const value = isoDate(...parts(m as RegExpExecArray));
      if (value) out.push({ value, index: m.index, length: m[0].length });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** The day a result cell holds (a date, a timestamp, or text with one date), or undefined. */
export function dateOfCell(cell: unknown): string | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : cell.toISOString().slice(0, 10);
  if (typeof cell !== 'string') return undefined;
  const found = findDates(cell.trim());
  return found.length === 1 && found[0]!.length === cell.trim().length ? found[0]!.value : undefined;
}
