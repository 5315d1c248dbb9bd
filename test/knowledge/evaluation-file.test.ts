// Evaluation files written before questions had ids and typed answers keep loading: migrated on read.
import test from 'ava';
import { readEvaluationFile } from '../../src/knowledge/evaluation-file.ts';

test('a file in the current format is read with its defaults', (t) => {
  const read = readEvaluationFile('core', { id: 'core', name: 'Core', questions: [{ id: 'c', question: 'How many?', expected_answer: '25%' }] });
  t.false('error' in read);
  if ('error' in read) return;
  t.false(read.migrated);
  t.deepEqual(read.questions, [{ id: 'c', question: 'How many?', expected_answer: '25%', answer_type: 'percent', tolerance_pct: 3 }]);
});

test('an older file is migrated on read: ids from positions, the one number of a short answer, a warning for prose', (t) => {
  const read = readEvaluationFile('core-questions', {
    id: 'core-questions',
    name: 'Core business questions',
    questions: [
      { question: 'How many customers do we have?', expected_answer: '5,000 customers.', expected_sql: 'SELECT COUNT(*) FROM main.customers' },
      { question: 'Which product category brought the most revenue in 2025?', expected_answer: 'The category with the highest sum of line revenue.' },
      { question: 'How many orders were placed through the mobile channel?', expected_answer: "The count of orders with channel = 'mobile'." },
      { question: 'When did we start?', expected_answer: '2022-01-01', tolerance_pct: 10 },
    ],
  });
  t.false('error' in read);
  if ('error' in read) return;
  t.true(read.migrated);
  t.deepEqual(
    read.questions.map((q) => [q.id, q.expected_answer, q.answer_type, q.tolerance_pct]),
    [
      ['q1', '5,000', 'number', 3],
      ['q4', '2022-01-01', 'date', 0],
    ],
  );
  t.is(read.questions[0]!.expected_sql, 'SELECT COUNT(*) FROM main.customers');
  t.is(read.warnings.length, 2);
  t.regex(read.warnings[0]!, /^questions\[1\]\.expected_answer: /);
});

test('a file without a list of questions is not an evaluation', (t) => {
  t.deepEqual(readEvaluationFile('x', { id: 'x', name: 'X' }), { error: 'not an evaluation: questions must be a list' });
  t.deepEqual(readEvaluationFile('x', 'text'), { error: 'not an evaluation: questions must be a list' });
});
