// A question that asks for a chart ("as a line chart", "plot ...", "a pie chart of ...") is answered
// with the same query as without those words, and charted with the mark it names.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { findChart } from '../../src/agent/offline/chart-request.ts';
import { normalize } from '../../src/agent/offline/words.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

/** Asks `question` after `earlier` questions (each answered), and returns the run's SQL, chart marks and text. */
async function ask(question: string, earlier: string[] = []) {
  const { result, events } = await askOffline(wh, question, earlier);
  const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql')?.sql;
  const marks = events.filter((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart').map((e) => (e.spec as { mark: { type: string } }).mark.type);
  return { result, sql, marks };
}

test('chart words are read with their mark, and only where they ask for a chart', (t) => {
  const chart = (q: string) => findChart(normalize(q));
  t.like(chart('Revenue by month in 2024 as a line chart'), { mark: 'line' });
  t.like(chart('show me a bar chart of orders by country'), { mark: 'bar' });
  t.like(chart('Pie chart of revenue by channel'), { mark: 'arc' });
  t.like(chart('orders by status, as a donut chart'), { mark: 'arc' });
  t.like(chart('units by month as an area graph'), { mark: 'area' });
  t.like(chart('a scatter plot of revenue by customer'), { mark: 'point' });
  t.like(chart('revenue by country as a column chart'), { mark: 'bar' });
  const plain = chart('Plot revenue by month');
  t.truthy(plain);
  t.is(plain?.mark, undefined, 'a chart of the usual kind');
  t.is(chart('as a chart')?.mark, undefined);
  t.is(chart('revenue by product line'), undefined);
  t.is(chart('orders by channel'), undefined);
  t.is(chart('plot'), undefined, 'a verb with nothing to plot');
});

const REVENUE_BY_MONTH = 'revenue by month in 2025';

test('a question that names a chart runs the same query and is drawn with that mark', async (t) => {
  const plain = await ask(REVENUE_BY_MONTH);
  t.is(plain.result.status, 'completed');
  t.deepEqual(plain.marks, ['line'], 'over time: a line, as before');
  for (const [question, mark] of [
    [`${REVENUE_BY_MONTH} as a bar chart`, 'bar'],
    [`Show me an area chart of ${REVENUE_BY_MONTH}`, 'area'],
    [`Plot ${REVENUE_BY_MONTH}`, 'line'],
    [`${REVENUE_BY_MONTH}, as a line graph`, 'line'],
  ] as const) {
    const asked = await ask(question);
    t.is(asked.result.status, 'completed', `${question}: ${asked.result.text}`);
    t.is(asked.sql, plain.sql, question);
    t.deepEqual(asked.marks, [mark], question);
  }
  const pie = await ask('Pie chart of the number of orders by status');
  t.is(pie.result.status, 'completed', pie.result.text);
  t.deepEqual(pie.marks, ['arc']);
});

test('"as a pie chart" after a question draws that question again, with the same query', async (t) => {
  const first = await ask('number of orders by status');
  t.deepEqual(first.marks, ['bar']);
  const again = await ask('as a pie chart', ['number of orders by status']);
  t.is(again.result.status, 'completed', again.result.text);
  t.is(again.sql, first.sql);
  t.deepEqual(again.marks, ['arc']);
  const and = await ask('and as a line chart?', ['number of orders by status']);
  t.deepEqual(and.marks, ['line']);
});

test('periods compared are drawn as bars side by side, unless the question names another chart', async (t) => {
  t.deepEqual((await ask('revenue in 2025 compared to 2024')).marks, ['bar']);
  t.deepEqual((await ask('revenue this year vs last year by channel')).marks, ['bar']);
  t.deepEqual((await ask('revenue in 2025 compared to 2024 as a line chart')).marks, ['line']);
});


test('periods ranked by the measure are drawn as bars, in the ranking\'s order', async (t) => {
  const top = await ask('top 3 months by number of orders');
  t.is(top.result.status, 'completed', top.result.text);
  t.regex(top.sql ?? '', /ORDER BY 2 DESC, 1\nLIMIT 3$/);
  t.deepEqual(top.marks, ['bar']);
});

test('grouped by a period and a column, the chart runs along time with the column as its series, whichever is said first', async (t) => {
  for (const question of ['monthly revenue by country in 2025, as a chart', 'revenue by country and month in 2025 as a line chart', 'number of orders per month by channel in 2024 as a bar chart']) {
    const { result, events } = await askOffline(wh, question, []);
    t.is(result.status, 'completed', `${question}: ${result.text}`);
    const chart = events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart');
    const encoding = (chart?.spec as { encoding?: Record<string, { field?: string; type?: string }> } | undefined)?.encoding;
    t.like(encoding?.['x'], { field: 'month', type: 'temporal' }, question);
    t.like(encoding?.['color'], { field: question.includes('channel') ? 'channel' : 'country' }, question);
  }
  // One grouping: no series.
  const { events } = await askOffline(wh, 'revenue by country in 2025 as a bar chart', []);
  const one = events.find((e): e is Extract<AgentEvent, { type: 'chart' }> => e.type === 'chart');
  t.falsy((one?.spec as { encoding?: Record<string, unknown> }).encoding?.['color']);
});
