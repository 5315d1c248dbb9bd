// What a reply answered. The structured result comes first: a last query whose result is one row of
// one column is the answer. Otherwise the text is read for the one number (or date) it gives: numbers
// inside dates and numbers the question itself names ("in 2025", "over 500") are not answers; a
// currency or percent sign, or bold type, picks one out of several. A reply that ran no query and
// says it cannot answer is a refusal whatever numbers it holds: the offline model's refusal names
// example questions ("units by month in 2025"), and their numbers are no answer.
import { findNumbers, parseAnswerValue, type AnswerValue, type FoundNumber } from '../../shared/answer-value.ts';
import type { AnswerType } from '../../shared/evaluation-suite.ts';
import { dateOfCell, findDates } from './find-dates.ts';

/** What the scorer reads of one reply. */
export interface ReplyEvidence {
  text: string;
  /** The only value of the last query's result, when it had one row and one column. */
  cell?: unknown;
  /** Whether the reply ran a query (absent in replies stored before it was kept: read as before). */
  queried?: boolean;
}

export type Observation =
  | { usable: true; value: AnswerValue; source: 'table' | 'text' }
  | { usable: false; reason: 'no_answer' | 'ambiguous' | 'refused' };

const REFUSAL = /\b(can(?:'|’)?t|cannot|unable to|not able to|won(?:'|’)t|do not have (?:access|enough)|don(?:'|’)t have (?:access|enough)|configure an llm provider)\b/i;

/** Reads the answer of a reply to `question`, for a question of `type`. */
export function observe(reply: ReplyEvidence, question: string, type: AnswerType): Observation {
  if (reply.cell !== undefined) {
    const value = cellValue(reply.cell, type);
    if (value) return { usable: true, value, source: 'table' };
  }
  if (reply.queried === false && REFUSAL.test(reply.text)) return { usable: false, reason: 'refused' };
  const found = type === 'date' ? dateIn(reply.text, question) : numberIn(reply.text, question, type);
  if (found === 'ambiguous') return { usable: false, reason: 'ambiguous' };
  if (found) return { usable: true, value: found, source: 'text' };
  return { usable: false, reason: REFUSAL.test(reply.text) ? 'refused' : 'no_answer' };
}

/** A single result cell as an answer of the question's type. */
function cellValue(cell: unknown, type: AnswerType): AnswerValue | undefined {
  if (type === 'date') {
    const day = dateOfCell(cell);
    return day ? { kind: 'date', value: day } : undefined;
  }
  if (typeof cell === 'bigint') return { kind: 'number', value: Number(cell), percent: false, currency: false };
  const value = parseAnswerValue(typeof cell === 'string' ? cell.trim() : cell);
  return value?.kind === 'number' ? value : undefined;
}

function dateIn(text: string, question: string): AnswerValue | 'ambiguous' | undefined {
  const asked = new Set(findDates(question).map((d) => d.value));
  const days = new Set(findDates(text).map((d) => d.value).filter((d) => !asked.has(d)));
  if (days.size > 1) return 'ambiguous';
  const [day] = days;
  return day ? { kind: 'date', value: day } : undefined;
}

function numberIn(text: string, question: string, type: AnswerType): AnswerValue | 'ambiguous' | undefined {
  const dates = findDates(text);
  const inDate = (n: FoundNumber) => dates.some((d) => n.index < d.index + d.length && d.index < n.index + n.text.length);
  const asked = new Set(findNumbers(question).map((n) => n.value.value));
  let candidates = findNumbers(text).filter((n) => !inDate(n) && !asked.has(n.value.value));
  // A bare year ("in 2024") is a period, not an answer, unless nothing else is there.
  const notYears = candidates.filter((n) => !isBareYear(n));
  if (notYears.length > 0) candidates = notYears;
  for (const prefer of preferences(type, text)) {
    const preferred = candidates.filter(prefer);
    if (preferred.length > 0) candidates = preferred;
  }
  const distinct = new Set(candidates.map((n) => `${n.value.value}|${n.value.percent}`));
  if (distinct.size > 1) return 'ambiguous';
  return candidates[0]?.value;
}

const isBareYear = (n: FoundNumber) => /^\d{4}$/.test(n.text.trim()) && n.value.value >= 1900 && n.value.value <= 2100;

/** Narrowing steps for several candidates, strongest signal last. */
function preferences(type: AnswerType, text: string): ((n: FoundNumber) => boolean)[] {
  const steps: ((n: FoundNumber) => boolean)[] = [];
  if (type === 'currency') steps.push((n) => n.value.currency);
  if (type === 'percent' || type === 'ratio') steps.push((n) => n.value.percent);
  if (type === 'count' || type === 'number') steps.push((n) => !n.value.percent);
  const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => [m.index + 2, m.index + 2 + m[1]!.length] as const);
  steps.push((n) => bold.some(([from, to]) => n.index >= from && n.index < to));
  return steps;
}
