// Periods compared in one question: two periods of one length read as one period with a row for each
// (less the time between them when they are not neighbours); anything else stays the first period,
// and the words after it are left unread.
import test from 'ava';
import { findPeriod, withNeighbour } from '../../src/agent/offline/periods.ts';
import { normalize } from '../../src/agent/offline/words.ts';

const now = Date.UTC(2026, 10, 29);
const period = (q: string) => findPeriod(normalize(q), now);

test('two neighbouring years, quarters or months compared are one period, compared by that length', (t) => {
  t.deepEqual(period('revenue this year vs last year'), { from: '2025-01-01', to: '2027-01-01', label: 'last year and this year', span: [8, 30], compare: 'year' });
  t.like(period('Revenue in 2025 compared to 2024?'), { from: '2024-01-01', to: '2026-01-01', label: 'in 2024 and 2025', compare: 'year' });
  t.like(period('revenue in 2024 and 2025'), { from: '2024-01-01', to: '2026-01-01', compare: 'year' });
  t.like(period('orders in Q1 2025 versus Q2 2025'), { from: '2025-01-01', to: '2025-07-01', compare: 'quarter' });
  t.like(period('orders in March 2025 against April 2025'), { from: '2025-03-01', to: '2025-05-01', compare: 'month' });
  t.like(period('revenue last month compared with this month'), { from: '2026-10-01', to: '2026-12-01', compare: 'month' });
  // The year said once, after both: both are of that year, not the first the latest begun.
  t.like(period('revenue in Q1 vs Q2 2025'), { from: '2025-01-01', to: '2025-07-01', label: 'in Q1 2025 and Q2 2025', span: [8, 24], compare: 'quarter' });
  t.like(period('orders in March vs April 2025'), { from: '2025-03-01', to: '2025-05-01', compare: 'month' });
});

test('two periods of one length that are not neighbours are compared without the time between them', (t) => {
  t.deepEqual(period('revenue in 2023 vs 2025'), { from: '2023-01-01', to: '2026-01-01', label: 'in 2023 and 2025', span: [8, 23], compare: 'year', between: { from: '2024-01-01', to: '2025-01-01' } });
  t.like(period('revenue in 2022 and 2025'), { from: '2022-01-01', to: '2026-01-01', compare: 'year', between: { from: '2023-01-01', to: '2025-01-01' } });
  t.like(period('revenue in Q1 vs Q3 2025'), { from: '2025-01-01', to: '2025-10-01', label: 'in Q1 2025 and Q3 2025', compare: 'quarter', between: { from: '2025-04-01', to: '2025-07-01' } });
  // The later named first: the earlier still opens the period.
  t.like(period('revenue Q4 vs Q1 2025'), { from: '2025-01-01', to: '2026-01-01', compare: 'quarter', between: { from: '2025-04-01', to: '2025-10-01' } });
  t.like(period('orders in march 2025 vs march 2026'), { from: '2025-03-01', to: '2026-04-01', compare: 'month', between: { from: '2025-04-01', to: '2026-03-01' } });
  t.is(period('revenue in 2024 vs 2025')?.between, undefined, 'neighbours have no time between them');
});

test('periods of different lengths, or one period twice, stay the first period alone', (t) => {
  t.is(period('revenue in 2025 vs Q1 2024')?.compare, undefined);
  t.like(period('revenue in 2025 vs 2025'), { from: '2025-01-01', to: '2026-01-01', compare: undefined });
  t.like(period('revenue last week vs this week'), { compare: undefined });
  t.like(period('revenue since 2024 vs 2025'), { from: '2024-01-01', compare: undefined });
  t.like(period('revenue in 2024 and customers'), { from: '2024-01-01', to: '2025-01-01', compare: undefined });
  t.is(period('revenue by channel')?.compare, undefined);
  // "This year" takes no year after it.
  t.like(period('revenue this year vs 2025'), { compare: undefined });
});

test('"the last N months" counts back from today, and offers as many whole units before the current one', (t) => {
  // Sunday 29 November 2026.
  t.like(period('revenue in the last 12 months'), { from: '2025-11-30', to: '2026-11-30', label: 'in the last 12 months', rolling: { unit: 'month', whole: { from: '2025-11-01', to: '2026-11-01', label: 'in the last 12 whole months' } } });
  t.like(period('revenue in the past 4 quarters'), { from: '2025-11-30', to: '2026-11-30', rolling: { unit: 'quarter', whole: { from: '2025-10-01', to: '2026-10-01' } } });
  t.like(period('orders in the last 2 weeks'), { from: '2026-11-16', to: '2026-11-30', rolling: { unit: 'week', whole: { from: '2026-11-09', to: '2026-11-23' } } });
  t.like(period('orders in the last 7 days'), { from: '2026-11-23', to: '2026-11-30', rolling: { unit: 'day', whole: { from: '2026-11-22', to: '2026-11-29' } } });
  t.like(period('orders in the last 3 years'), { from: '2023-11-30', to: '2026-11-30', rolling: { unit: 'year', whole: { from: '2023-01-01', to: '2026-01-01' } } });
  // A year counted back, in whole months or quarters; "the past year" is one year counted back.
  t.like(period('monthly revenue over the past year'), { from: '2025-11-30', to: '2026-11-30', label: 'in the past year', span: [16, 34], rolling: { unit: 'year', wholeBy: { month: { from: '2025-11-01', to: '2026-11-01', label: 'in the last 12 whole months' }, quarter: { from: '2025-10-01', to: '2026-10-01', label: 'in the last 4 whole quarters' } } } });
  t.like(period('revenue in the last 2 quarters'), { rolling: { unit: 'quarter', wholeBy: { month: { from: '2026-05-01', to: '2026-11-01', label: 'in the last 6 whole months' } } } });
  t.like(period('orders over the last quarter'), { from: '2026-07-01', to: '2026-10-01', label: 'last quarter', span: [7, 28] });
});

test('days and ranges of days, by name or as dates; without a year the latest begun', (t) => {
  t.like(period('revenue on october 15 2026'), { from: '2026-10-15', to: '2026-10-16', label: 'on 2026-10-15' });
  t.like(period('orders on the 3rd of march 2025'), { from: '2025-03-03', to: '2025-03-04' });
  t.like(period('revenue on 2026-10-15'), { from: '2026-10-15', to: '2026-10-16' });
  t.like(period('orders on december 24'), { from: '2025-12-24', to: '2025-12-25' }, 'not yet this year on 29 November 2026');
  t.like(period('orders on november 29'), { from: '2026-11-29', to: '2026-11-30' });
  t.like(period('revenue from january 1 to march 31 2025'), { from: '2025-01-01', to: '2025-04-01', label: 'from 2025-01-01 to 2025-03-31' });
  t.like(period('revenue from december 15 2024 to january 15 2025'), { from: '2024-12-15', to: '2025-01-16' });
  t.like(period('revenue between 2025-01-01 and 2025-03-31'), { from: '2025-01-01', to: '2025-04-01' });
  t.like(period('revenue in the first quarter'), { from: '2026-01-01', to: '2026-04-01', label: 'in Q1 2026' });
  t.like(period('revenue in the 2nd quarter of 2025'), { from: '2025-04-01', to: '2025-07-01' });
});

test('a day that does not exist, or a range that ends before it begins, is not read: only its year is', (t) => {
  // The words left unread make the question refused (offline-questions.test.ts).
  t.like(period('revenue on february 30 2025'), { label: 'in 2025', span: [23, 27] });
  t.like(period('revenue on 2025-13-01'), { label: 'in 2025' });
  t.like(period('revenue from march 31 to january 1 2025'), { label: 'in 2025' });
  t.like(period('revenue in march 2025'), { from: '2025-03-01', to: '2025-04-01' }, 'a month and a year stay a month');
});

test('"before", "after" and "until" a period bound the time on one side', (t) => {
  t.deepEqual(period('revenue before 2024'), { to: '2024-01-01', label: 'before 2024', span: [8, 19] });
  t.like(period('revenue after june 2025'), { from: '2025-07-01', to: undefined, label: 'after June 2025' });
  t.like(period('orders until march 2025'), { from: undefined, to: '2025-04-01', label: 'until the end of March 2025' });
  t.like(period('customers who signed up before last month'), { from: undefined, to: '2026-10-01' });
  t.is(period('revenue after since 2025'), undefined, 'a period without an end has no after');
});

test('a whole year, quarter or month is compared with the one before or after; other periods are not', (t) => {
  const previous = (q: string) => withNeighbour(period(q)!, 'before');
  t.like(previous('in 2025'), { from: '2024-01-01', to: '2026-01-01', compare: 'year', label: 'in 2025 and the year before' });
  t.like(previous('in q1 2025'), { from: '2024-10-01', to: '2025-04-01', compare: 'quarter' });
  t.like(previous('in march 2025'), { from: '2025-02-01', to: '2025-04-01', compare: 'month' });
  t.is(previous('in the last 30 days'), undefined);
  t.is(previous('2025 vs 2024'), undefined, 'already two periods');
  // A period named as the reference ("growth compared to 2024") is compared with the one after it.
  const next = (q: string) => withNeighbour(period(q)!, 'after');
  t.like(next('in 2024'), { from: '2024-01-01', to: '2026-01-01', compare: 'year', label: 'in 2024 and the year after' });
  t.like(next('in q4 2025'), { from: '2025-10-01', to: '2026-04-01', compare: 'quarter' });
  t.like(next('in december 2025'), { from: '2025-12-01', to: '2026-02-01', compare: 'month' });
  t.is(next('in the last 30 days'), undefined);
});

test('a year, quarter or month to date runs from its start through today', (t) => {
  const range = (q: string) => {
    const p = period(q);
    return p && [p.from, p.to, p.label];
  };
  for (const q of ['revenue year to date', 'ytd revenue', 'revenue this year so far', 'revenue since the start of the year']) t.deepEqual(range(q), ['2026-01-01', '2026-11-30', 'this year to date'], q);
  for (const q of ['orders quarter to date', 'QTD orders', 'orders this quarter so far']) t.deepEqual(range(q), ['2026-10-01', '2026-11-30', 'this quarter to date'], q);
  for (const q of ['revenue month to date', 'MTD revenue', 'revenue for the current month to date', 'orders since the beginning of this month']) t.deepEqual(range(q), ['2026-11-01', '2026-11-30', 'this month to date'], q);
  // Without "to date" or "so far" a running unit is the whole of it, as before.
  t.deepEqual(range('revenue this quarter'), ['2026-10-01', '2027-01-01', 'this quarter']);
});

test('"the quarter before" after a period counts from it: compared only where read from today it lands just before', (t) => {
  t.like(period('revenue this year vs the year before'), { from: '2025-01-01', to: '2027-01-01', compare: 'year' });
  t.like(period('revenue this year vs previous year'), { from: '2025-01-01', to: '2027-01-01', compare: 'year' });
  // Read from today, "the quarter before" is Q3 2026, not the quarter before Q1 2025: the first period alone, the rest unread.
  const q1 = period('orders in Q1 2025 vs the quarter before');
  t.like(q1, { from: '2025-01-01', to: '2025-04-01' });
  t.is(q1?.compare, undefined);
});
