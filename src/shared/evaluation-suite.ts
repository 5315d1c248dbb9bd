// The evaluation suite file (`evaluations/<id>.yaml`): a named list of questions with expected answers.
// Shared by the service, which refuses a write that breaks it (422 naming the field), and the
// command-line tool, which checks a file offline (`sextant eval validate`). Unknown fields are refused,
// so a typo (`tolerence_pct`) never silently falls back to a default.
import { z } from 'zod';
import { parseAnswerValue, type AnswerValue } from './answer-value.ts';

export const ANSWER_TYPES = ['number', 'count', 'currency', 'percent', 'ratio', 'date'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/** Relative difference allowed when a question sets none, in percent. */
export const DEFAULT_TOLERANCE_PCT = 3;
/** File-name-safe suite id (the knowledge slug). */
export const SUITE_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
/** Stable question id: letters, digits, `.`, `_`, `:` and `-`. */
export const QUESTION_ID_RE = /^[A-Za-z0-9._:-]{1,100}$/;
export const MAX_QUESTIONS = 1000;

const nonBlank = (max: number) => z.string().max(max).regex(/\S/, 'must not be empty');

const Question = z
  .strictObject({
    id: z.string().regex(QUESTION_ID_RE, 'use 1 to 100 letters, digits, ".", "_", ":" or "-"'),
    question: nonBlank(1000),
    expected_answer: z.union([z.number(), z.string().max(100)], { error: 'must be a number or an ISO date (YYYY-MM-DD), as text or a number' }),
    answer_type: z.enum(ANSWER_TYPES).optional(),
    tolerance_pct: z.number().min(0).max(100).optional(),
    concept_name: nonBlank(200).optional(),
    unit: nonBlank(50).optional(),
    expected_sql: nonBlank(20_000).optional(),
    source: nonBlank(2000).optional(),
  })
  .superRefine((q, ctx) => {
    const value = parseAnswerValue(q.expected_answer);
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!value) return issue('expected_answer', 'must be a finite number or an ISO date (YYYY-MM-DD); prose is not an expected answer');
    const mismatch = q.answer_type && answerTypeMismatch(q.answer_type, value);
    if (mismatch) issue('answer_type', mismatch);
    if ((q.answer_type === 'date' || value.kind === 'date') && q.tolerance_pct !== undefined && q.tolerance_pct !== 0) issue('tolerance_pct', 'dates compare exactly: leave tolerance_pct out or set it to 0');
  });

/** Why an expected value cannot be of the declared type, or undefined when it can. */
function answerTypeMismatch(type: AnswerType, value: AnswerValue): string | undefined {
  if (type === 'date') return value.kind === 'date' ? undefined : 'is date but expected_answer is not an ISO date';
  if (value.kind === 'date') return `is ${type} but expected_answer is a date`;
  if (value.percent && (type === 'count' || type === 'currency')) return `is ${type} but expected_answer is a percentage`;
  if (type === 'count' && !Number.isInteger(value.value)) return 'is count but expected_answer is not a whole number';
  return undefined;
}

/** The suite file as written. */
export const EvaluationSuite = z
  .strictObject({
    id: z.string().regex(SUITE_ID_RE, 'use letters, digits, _, - or . (not first), at most 128 characters'),
    name: nonBlank(160),
    description: z.string().max(2000).optional(),
    questions: z.array(Question).min(1).max(MAX_QUESTIONS),
  })
  .superRefine((suite, ctx) => {
    const seen = new Set<string>();
    suite.questions.forEach((q, i) => {
      if (seen.has(q.id)) ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: `duplicate question id ${q.id}` });
      seen.add(q.id);
    });
  });
export type EvaluationSuite = z.infer<typeof EvaluationSuite>;

/** A question as runs use it: every default applied. */
export interface SuiteQuestion {
  id: string;
  question: string;
  expected_answer: number | string;
  answer_type: AnswerType;
  tolerance_pct: number;
  concept_name?: string;
  unit?: string;
  expected_sql?: string;
  source?: string;
}

/** The type a question's answer has when the file does not say: `%` percent, a currency sign currency, an ISO date date. */
export function inferAnswerType(value: AnswerValue): AnswerType {
  if (value.kind === 'date') return 'date';
  return value.percent ? 'percent' : value.currency ? 'currency' : 'number';
}

/** A validated question with its defaults (answer type inferred, tolerance 3 %, 0 for dates). */
export function normalizeQuestion(q: EvaluationSuite['questions'][number]): SuiteQuestion {
  const type = q.answer_type ?? inferAnswerType(parseAnswerValue(q.expected_answer)!);
  const { answer_type: _t, tolerance_pct: _p, ...rest } = q;
  return { ...rest, answer_type: type, tolerance_pct: type === 'date' ? 0 : (q.tolerance_pct ?? DEFAULT_TOLERANCE_PCT) };
}

/** An evaluation ready to run; `warnings` name what a file in an older format could not carry over. */
export interface EvaluationDefinition {
  id: string;
  name: string;
  description?: string;
  questions: SuiteQuestion[];
  /** True when the file predates the current format and was migrated on read. */
  migrated: boolean;
  warnings: string[];
}
