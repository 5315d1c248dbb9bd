// The evaluation suite format: what it accepts, what it refuses (and where the refusal points), and
// the defaults a run applies.
import test from 'ava';
import { EvaluationSuite, normalizeQuestion, type AnswerType } from '../../src/shared/evaluation-suite.ts';
import { parseAnswerValue } from '../../src/shared/answer-value.ts';

const suite = (questions: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({ id: 'core', name: 'Core', questions, ...extra });
const question = (extra: Record<string, unknown> = {}) => ({ id: 'q1', question: 'How many customers?', expected_answer: 5000, ...extra });
const issuesOf = (value: unknown) => {
  const r = EvaluationSuite.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, code: i.code, keys: 'keys' in i ? i.keys : undefined }));
};

test('a suite with every field passes', (t) => {
  const full = suite(
    [
      question({ answer_type: 'count', tolerance_pct: 0, concept_name: 'customers', unit: 'customers', expected_sql: 'SELECT COUNT(*) FROM customers', source: 'finance report 2025' }),
      question({ id: 'rev.2025:usd', question: 'Revenue in 2025?', expected_answer: '$66,848,025.41' }),
      question({ id: 'zero', question: 'Refunds?', expected_answer: 0 }),
      question({ id: 'first', question: 'First order?', expected_answer: '2022-01-05' }),
    ],
    { description: 'The numbers that matter.' },
  );
  t.deepEqual(issuesOf(full), []);
});

// [what, suite, path of the refusal]
const REFUSED: [string, unknown, (string | number)[]][] = [
  ['an unknown suite field', suite([question()], { owner: 'me' }), []],
  ['an unknown question field', suite([question({ tolerence_pct: 5 })]), ['questions', 0]],
  ['a duplicate question id', suite([question(), question({ question: 'Again?' })]), ['questions', 1, 'id']],
  ['a question id with a space', suite([question({ id: 'q 1' })]), ['questions', 0, 'id']],
  ['a boolean answer', suite([question({ expected_answer: true })]), ['questions', 0, 'expected_answer']],
  ['a prose answer', suite([question({ expected_answer: 'about five thousand customers' })]), ['questions', 0, 'expected_answer']],
  ['an impossible date', suite([question({ expected_answer: '2024-02-30' })]), ['questions', 0, 'expected_answer']],
  ['a missing answer', suite([{ id: 'q1', question: 'How many?' }]), ['questions', 0, 'expected_answer']],
  ['a name over 160 characters', { ...suite([question()]), name: 'n'.repeat(161) }, ['name']],
  ['a description over 2,000 characters', suite([question()], { description: 'd'.repeat(2001) }), ['description']],
  ['a question over 1,000 characters', suite([question({ question: 'q'.repeat(1001) })]), ['questions', 0, 'question']],
  ['a blank question', suite([question({ question: '   ' })]), ['questions', 0, 'question']],
  ['a tolerance over 100', suite([question({ tolerance_pct: 101 })]), ['questions', 0, 'tolerance_pct']],
  ['a negative tolerance', suite([question({ tolerance_pct: -1 })]), ['questions', 0, 'tolerance_pct']],
  ['a tolerance on a date', suite([question({ expected_answer: '2024-01-01', tolerance_pct: 5 })]), ['questions', 0, 'tolerance_pct']],
  ['an unknown answer type', suite([question({ answer_type: 'money' })]), ['questions', 0, 'answer_type']],
  ['a date type with a number', suite([question({ answer_type: 'date' })]), ['questions', 0, 'answer_type']],
  ['a count type with a percentage', suite([question({ answer_type: 'count', expected_answer: '25%' })]), ['questions', 0, 'answer_type']],
  ['a count that is not whole', suite([question({ answer_type: 'count', expected_answer: 2.5 })]), ['questions', 0, 'answer_type']],
  ['no questions', suite([]), ['questions']],
  ['a suite id that is not a slug', { ...suite([question()]), id: '../x' }, ['id']],
];

for (const [what, value, path] of REFUSED) {
  test(`refused: ${what}`, (t) => {
    const issues = issuesOf(value);
    t.true(issues.length > 0, 'refused');
    t.deepEqual(issues[0]!.path, path);
  });
}

test('unknown fields are refused naming each key', (t) => {
  const issues = issuesOf(suite([question({ tolerence_pct: 5, extra: 1 })]));
  t.deepEqual(issues[0]!.keys, ['tolerence_pct', 'extra']);
});

// [expected answer as written, answer type inferred]
const INFERRED: [number | string, AnswerType][] = [
  [5000, 'number'],
  ['5,000', 'number'],
  ['25%', 'percent'],
  ['12.5 percent', 'percent'],
  ['$1,200.50', 'currency'],
  ['€3.4M', 'currency'],
  ['1200 USD', 'currency'],
  ['2024-03-01', 'date'],
  [0, 'number'],
  ['-7.5', 'number'],
];

for (const [answer, type] of INFERRED) {
  test(`the answer type of ${JSON.stringify(answer)} is inferred as ${type}`, (t) => {
    const parsed = EvaluationSuite.parse(suite([question({ expected_answer: answer })]));
    const normal = normalizeQuestion(parsed.questions[0]!);
    t.is(normal.answer_type, type);
    t.is(normal.tolerance_pct, type === 'date' ? 0 : 3);
  });
}

test('a declared type and tolerance win over the defaults', (t) => {
  const parsed = EvaluationSuite.parse(suite([question({ answer_type: 'count', tolerance_pct: 0.5 })]));
  t.like(normalizeQuestion(parsed.questions[0]!), { answer_type: 'count', tolerance_pct: 0.5 });
});

test('answer values parse whole: numbers as written, dates that exist, nothing else', (t) => {
  t.like(parseAnswerValue('$1.2M'), { kind: 'number', value: 1_200_000, currency: true });
  t.like(parseAnswerValue('−3'), { kind: 'number', value: -3 });
  t.like(parseAnswerValue('1e3'), { kind: 'number', value: 1000 });
  t.like(parseAnswerValue('2024-02-29'), { kind: 'date', value: '2024-02-29' });
  for (const bad of ['2023-02-29', '1,23', 'five', '', '5 customers', 'NaN', 'Infinity', '1e999']) t.is(parseAnswerValue(bad), undefined, bad);
  t.is(parseAnswerValue(Number.POSITIVE_INFINITY), undefined);
  t.is(parseAnswerValue(true), undefined);
});
