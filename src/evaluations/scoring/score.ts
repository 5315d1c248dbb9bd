// Scoring one observed value against a question. Relative difference abs(observed - expected) /
// abs(expected) * 100 passes within the question's tolerance; an expected 0 passes only for 0. Percent
// and ratio questions compare fractions (25% equals 0.25; a percent question's bare 25 also reads as
// 25%); counts and currencies compare as written. Dates compare exactly.
import { parseAnswerValue, type AnswerValue } from '../../shared/answer-value.ts';
import type { SuiteQuestion } from '../../shared/evaluation-suite.ts';

export interface Score {
  result: 'pass' | 'fail';
  /** Percent; null for dates and when 0 was expected. */
  relative_diff: number | null;
}

/** A value as the question compares it: a fraction for percent and ratio questions, a day for dates. */
export function comparable(value: AnswerValue, type: SuiteQuestion['answer_type']): number | string {
  if (value.kind === 'date') return value.value;
  return (type === 'percent' || type === 'ratio') && value.percent ? value.value / 100 : value.value;
}

/** The question's expected answer, as compared. */
export function expectedOf(q: SuiteQuestion): number | string {
  return comparable(parseAnswerValue(q.expected_answer)!, q.answer_type);
}

/** Scores an observed value. */
export function score(q: SuiteQuestion, observed: AnswerValue): Score {
  const expected = expectedOf(q);
  if (typeof expected === 'string' || observed.kind === 'date') {
    return { result: observed.kind === 'date' && observed.value === expected ? 'pass' : 'fail', relative_diff: null };
  }
  const value = comparable(observed, q.answer_type) as number;
  // A percent question answered with a bare number may mean either 25 or 25 %: the closer reading counts.
  const readings = q.answer_type === 'percent' && !observed.percent ? [value, value / 100] : [value];
  if (expected === 0) return { result: readings.some((v) => Math.abs(v) <= 1e-12) ? 'pass' : 'fail', relative_diff: null };
  const diff = Math.min(...readings.map((v) => (Math.abs(v - expected) / Math.abs(expected)) * 100));
  // A hair of slack for binary floating point at the exact edge (3 % of 100 is 3.0000000000000004).
  return { result: diff <= q.tolerance_pct + 1e-9 ? 'pass' : 'fail', relative_diff: round(diff) };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
