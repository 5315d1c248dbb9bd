// The scoring rules, table-driven: what a reply answered (structured result first, then the text),
// and how an observed value scores against the expected one.
import test from 'ava';
import { observe } from '../../src/evaluations/scoring/observe.ts';
import { score } from '../../src/evaluations/scoring/score.ts';
import { grade } from '../../src/evaluations/scoring/grade.ts';
import { parseAnswerValue } from '../../src/shared/answer-value.ts';
import { DEFAULT_TOLERANCE_PCT, type AnswerType, type SuiteQuestion } from '../../src/shared/evaluation-suite.ts';

const q = (expected_answer: number | string, answer_type: AnswerType, tolerance_pct = answer_type === 'date' ? 0 : DEFAULT_TOLERANCE_PCT): SuiteQuestion => ({
  id: 'q',
  question: 'How much?',
  expected_answer,
  answer_type,
  tolerance_pct,
});

// [what, expected, type, tolerance, observed as written, result, relative difference]
const SCORES: [string, number | string, AnswerType, number | undefined, number | string, 'pass' | 'fail', number | null][] = [
  ['an exact number', 5000, 'count', undefined, 5000, 'pass', 0],
  ['a number inside the default 3 %', 100, 'number', undefined, 102.5, 'pass', 2.5],
  ['a number exactly at the tolerance edge', 100, 'number', undefined, 103, 'pass', 3],
  ['a number just past the tolerance edge', 100, 'number', undefined, 103.0001, 'fail', 3.0001],
  ['a number below expected, at the edge', 100, 'number', undefined, 97, 'pass', 3],
  ['tolerance 0 wants the exact value', 42, 'count', 0, 42.0001, 'fail', 0.000238],
  ['a wider tolerance', 200, 'number', 10, 219, 'pass', 9.5],
  ['a negative expected value', -50, 'number', undefined, -51, 'pass', 2],
  ['a sign flip', -50, 'number', undefined, 50, 'fail', 200],
  ['expected 0 passes only for 0', 0, 'number', undefined, 0, 'pass', null],
  ['expected 0 fails for a tiny value', 0, 'number', undefined, 0.0001, 'fail', null],
  ['expected 0 fails for a negative value', 0, 'count', undefined, -1, 'fail', null],
  ['a percentage against its fraction', '25%', 'percent', undefined, 0.25, 'pass', 0],
  ['a fraction against a percentage', 0.25, 'percent', undefined, '25%', 'pass', 0],
  ['a percent question answered with a bare 25', '25%', 'percent', undefined, 25, 'pass', 0],
  ['a percentage off by more than the tolerance', '25%', 'percent', undefined, '27%', 'fail', 8],
  ['a ratio against a percentage', 0.4, 'ratio', undefined, '40%', 'pass', 0],
  ['a ratio is not read as a percentage when bare', 0.4, 'ratio', undefined, 40, 'fail', 9900],
  ['a count is not normalised from a percentage', 25, 'count', undefined, '25%', 'pass', 0],
  ['a count against a fraction', 25, 'count', undefined, 0.25, 'fail', 99],
  ['a currency with sign and separators', '$1,200', 'currency', undefined, 1200, 'pass', 0],
  ['a currency with a scale word', 1_200_000, 'currency', undefined, '$1.2M', 'pass', 0],
  ['a currency is not normalised', 12, 'currency', undefined, '12%', 'pass', 0],
  ['a currency with a trailing code', 99.5, 'currency', undefined, '99.50 USD', 'pass', 0],
  ['the same day', '2024-03-01', 'date', undefined, '2024-03-01', 'pass', null],
  ['the next day', '2024-03-01', 'date', undefined, '2024-03-02', 'fail', null],
  ['a number for a date', '2024-03-01', 'date', undefined, 20240301, 'fail', null],
  ['a date for a number', 5, 'number', undefined, '2024-03-01', 'fail', null],
];

for (const [what, expected, type, tolerance, observed, result, diff] of SCORES) {
  test(`scoring: ${what}`, (t) => {
    const value = parseAnswerValue(observed)!;
    t.truthy(value, `${observed} parses`);
    const s = score(q(expected, type, tolerance ?? (type === 'date' ? 0 : DEFAULT_TOLERANCE_PCT)), value);
    t.is(s.result, result);
    if (diff === null) t.is(s.relative_diff, null);
    else t.true(Math.abs(s.relative_diff! - diff) < 1e-3, `relative difference ${s.relative_diff} ≈ ${diff}`);
  });
}

// [what, question, type, reply text, cell, observed value or failure reason, source]
const OBSERVED: [string, string, AnswerType, string, unknown, number | string, 'table' | 'text' | null][] = [
  ['the single value of the result table first', 'How many customers?', 'count', 'About 4,900 customers.', '5000', 5000, 'table'],
  ['a number after a colon', 'How many customers?', 'count', 'Number of customers: 5,000.', undefined, 5000, 'text'],
  ['not the year the question names', 'What was revenue in 2025?', 'currency', 'Total revenue in 2025: $66,848,025.41.', undefined, 66848025.41, 'text'],
  ['not the threshold the question names', 'How many orders with a total amount over 500?', 'count', 'There were 94,094 orders over 500.', undefined, 94094, 'text'],
  ['the currency amount among other numbers', 'What was revenue?', 'currency', 'Revenue was **$66.8 million**, with 3,279 cancelled orders excluded.', undefined, 66_800_000, 'text'],
  ['the bold number among several', 'How many orders?', 'count', 'Of 120 days, orders totalled **3,402**; 15 were returned.', undefined, 3402, 'text'],
  ['a percentage as a fraction', 'What share of orders is mobile?', 'percent', 'Mobile orders are 25.3% of all orders.', undefined, 0.253, 'text'],
  ['not a number inside a date', 'How many orders?', 'count', 'Between 2022-01-01 and 2026-10-31 there were 120,000 orders.', undefined, 120000, 'text'],
  ['a written date', 'When was the earliest order?', 'date', 'The earliest order was placed on January 5, 2022.', undefined, '2022-01-05', 'text'],
  ['a timestamp cell as a day', 'When was the earliest order?', 'date', 'See the table.', '2022-01-05T00:00:00.000Z', '2022-01-05', 'table'],
  ['a day-month-year date', 'When did it start?', 'date', 'It started on 3 March 2024.', undefined, '2024-03-03', 'text'],
  ['not the digits of a hyphenated word', 'How many?', 'count', 'COVID-19 aside, we had 12 stores.', undefined, 12, 'text'],
  ['two different numbers: ambiguous', 'How many orders?', 'count', 'We had 120 orders and 45 returns.', undefined, 'ambiguous', null],
  ['a refusal', 'Why did revenue drop?', 'number', "I can't answer that offline. Configure an LLM provider.", undefined, 'refused', null],
  ['a clarifying question gives no answer', 'What was revenue?', 'currency', 'Do you mean gross or net revenue?', undefined, 'no_answer', null],
  ['two dates: ambiguous', 'When?', 'date', 'Either 2024-01-01 or 2024-02-01.', undefined, 'ambiguous', null],
  ['a table cell of the wrong kind falls back to the text', 'When was the first order?', 'date', 'The first order came on 2022-01-05.', 'Germany', '2022-01-05', 'text'],
];

for (const [what, question, type, text, cell, expected, source] of OBSERVED) {
  test(`observing: ${what}`, (t) => {
    const seen = observe({ text, ...(cell !== undefined ? { cell } : {}) }, question, type);
    if (source === null) {
      t.false(seen.usable);
      if (!seen.usable) t.is(seen.reason, expected as typeof seen.reason);
      return;
    }
    t.true(seen.usable, text);
    if (!seen.usable) return;
    t.is(seen.source, source);
    const value = seen.value.kind === 'date' ? seen.value.value : type === 'percent' && seen.value.percent ? seen.value.value / 100 : seen.value.value;
    t.true(typeof value === 'string' ? value === expected : Math.abs(value - (expected as number)) < 1e-9, `${value} = ${expected}`);
  });
}

test('a reply that ran no query and says it cannot answer is a refusal, whatever numbers its examples hold', (t) => {
  const refusal = 'I can\'t answer "How many unicorns live in the warehouse basement?" offline: you could ask for example "units last month" or "units by month in 2025".';
  t.like(observe({ text: refusal, queried: false }, 'How many unicorns live in the warehouse basement?', 'count'), { usable: false, reason: 'refused' });
  t.like(grade(q(2025, 'count'), [{ status: 'completed', text: refusal, queried: false }]), { result: 'error', error: 'refused' });
  // An answer that ran its query keeps its number, however it words a caveat.
  t.like(observe({ text: "I can't break it down by store, but there were 4,912 orders.", queried: true }, 'How many orders?', 'count'), { usable: true, value: { value: 4912 } });
  // As do replies stored before the query was kept (regrading reads them as it did).
  t.like(observe({ text: refusal }, 'How many unicorns?', 'count'), { usable: true });
});

test('grading scores the first usable reply and names why none was usable', (t) => {
  const question = q(5000, 'count');
  t.like(grade(question, [{ status: 'completed', text: 'Which customers do you mean?' }, { status: 'completed', text: 'All of them: 5,000.' }]), { result: 'pass' });
  t.like(grade(question, [{ status: 'completed', text: 'Do you mean active ones?' }, { status: 'completed', text: 'I cannot tell.' }]), { result: 'error', error: 'refused' });
  t.like(grade(question, [{ status: 'failed', text: 'The answer could not be completed: LLM_TIMEOUT' }]), { result: 'error', error: 'agent_failed' });
  t.like(grade(question, []), { result: 'error', error: 'no_answer' });
  t.like(grade(question, [{ status: 'completed', text: 'We have 4,000.' }]), { result: 'fail', relative_diff: 20 });
});
