// Reading an evaluation file for runs. A file in the current format is normalized (types inferred,
// default tolerance); a file written before questions had ids and typed answers ("5,000 customers.")
// is migrated on read, without rewriting it: ids from positions, the one number or date of a prose
// answer, and a warning for each question that cannot be scored until someone corrects it.
import { findNumbers, parseAnswerValue } from '../shared/answer-value.ts';
import {
  ANSWER_TYPES,
  DEFAULT_TOLERANCE_PCT,
  EvaluationSuite,
  inferAnswerType,
  normalizeQuestion,
  QUESTION_ID_RE,
  type AnswerType,
  type EvaluationDefinition,
  type SuiteQuestion,
} from '../shared/evaluation-suite.ts';

/** The definition in a file's data, or `error` when nothing usable is in it. */
export function readEvaluationFile(id: string, data: unknown): EvaluationDefinition | { error: string } {
  const parsed = EvaluationSuite.safeParse(data);
  if (parsed.success) {
    const { questions, ...rest } = parsed.data;
    return { ...rest, id, questions: questions.map(normalizeQuestion), migrated: false, warnings: [] };
  }
  if (!isObject(data) || !Array.isArray(data['questions'])) return { error: 'not an evaluation: questions must be a list' };
  return migrate(id, data, data['questions']);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, max) : undefined);

function migrate(id: string, data: Record<string, unknown>, raw: unknown[]): EvaluationDefinition {
  const warnings: string[] = [];
  const questions: SuiteQuestion[] = [];
  const ids = new Set<string>();
  raw.forEach((entry, i) => {
    const where = `questions[${i}]`;
    const q = isObject(entry) ? migrateQuestion(entry, i, ids) : undefined;
    if (typeof q === 'string') warnings.push(`${where}.${q}`);
    else if (!q) warnings.push(`${where}: not a question`);
    else {
      ids.add(q.id);
      questions.push(q);
    }
  });
  const description = text(data['description'], 2000);
  return { id, name: text(data['name'], 160) ?? id, ...(description ? { description } : {}), questions, migrated: true, warnings };
}

/** The question in current form, or the field (and why) that keeps it out of runs. */
function migrateQuestion(q: Record<string, unknown>, i: number, taken: Set<string>): SuiteQuestion | string {
  const question = text(q['question'], 1000);
  if (!question) return 'question: missing; the question is left out of runs';
  const expected = legacyAnswer(q['expected_answer']);
  if (expected === undefined) return 'expected_answer: not a number or an ISO date; the question is left out of runs until it is corrected';
  const value = parseAnswerValue(expected)!;
  const wanted = typeof q['id'] === 'string' && QUESTION_ID_RE.test(q['id']) && !taken.has(q['id']) ? q['id'] : `q${i + 1}`;
  const declared = ANSWER_TYPES.includes(q['answer_type'] as AnswerType) ? (q['answer_type'] as AnswerType) : undefined;
  const type = declared && (declared === 'date') === (value.kind === 'date') ? declared : inferAnswerType(value);
  const tolerance = typeof q['tolerance_pct'] === 'number' && q['tolerance_pct'] >= 0 && q['tolerance_pct'] <= 100 ? q['tolerance_pct'] : DEFAULT_TOLERANCE_PCT;
  const sql = text(q['expected_sql'], 20_000);
  return { id: wanted, question, expected_answer: expected, answer_type: type, tolerance_pct: type === 'date' ? 0 : tolerance, ...(sql ? { expected_sql: sql } : {}) };
}

/** A value as such, or the single number of a short prose answer ("5,000 customers."). */
function legacyAnswer(v: unknown): number | string | undefined {
  if (parseAnswerValue(v)) return v as number | string;
  if (typeof v !== 'string') return undefined;
  const found = findNumbers(v);
  const values = new Set(found.map((f) => f.text.trim()));
  return found.length > 0 && values.size === 1 ? found[0]!.text.trim() : undefined;
}
