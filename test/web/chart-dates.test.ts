// Charts over dates (src/shared/chart-spec.ts): a bar chart sorted by the value is
// drawn in the value's order even over dates, bars over an "Automatic" date axis are a period wide and
// labelled at the period, and lines over time keep their date order. Drawn with Vega over rows put in
// as the client does (saved/chart-over.ts); the bars and labels are read back from the SVG.
import test from 'ava';
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { buildChartSpec, datePeriodOf, defaultSettings, sortsFor, type ChartSettings, type Column } from '../../src/shared/chart-spec.ts';
import { chartOver } from '../../web/src/saved/chart-over.ts';

const COLUMNS: Column[] = [
  { name: 'm', type: 'DATE' },
  { name: 'revenue', type: 'DECIMAL(18,2)' },
];
const MONTHS = [
  ['2026-01-01', '500.00'],
  ['2026-02-01', '900.00'],
  ['2026-03-01', '700.00'],
];
const settings = (s: Partial<ChartSettings>): ChartSettings => ({ ...defaultSettings(COLUMNS), ...s });

interface Bar {
  label: string;
  left: number;
  width: number;
}

/** The bars Vega draws for the spec over the rows, left to right, and the text of every label. */
async function drawn(spec: Record<string, unknown>, rows: unknown[][]): Promise<{ bars: Bar[]; labels: string[]; width: number }> {
  const view = new View(parse(compile(chartOver(spec, { columns: COLUMNS, rows }) as never).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  const bars = [...svg.matchAll(/<path aria-label="m[^:]*: ([^;]*);[^"]*"[^>]*d="M([\d.-]+),[\d.-]+h([\d.-]+)/g)].map((b) => ({ label: b[1]!, left: Number(b[2]), width: Number(b[3]) }));
  const labels = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((l) => l[1]!);
  return { bars: bars.sort((a, b) => a.left - b.left), labels, width: view.width() };
}

test('a bar chart over dates sorted by the value, descending, draws its bars in the value\'s order, labelled in the chosen format', async (t) => {
  const spec = buildChartSpec(settings({ type: 'bar', sort: 'y-descending', dateFormat: 'month' }), COLUMNS)!;
  t.like((spec['encoding'] as Record<string, unknown>)['x'], { field: 'm', type: 'ordinal', timeUnit: 'yearmonth', sort: '-y', axis: { format: '%b %Y' } });
  const { bars, labels } = await drawn(spec, MONTHS);
  t.deepEqual(bars.map((b) => b.label), ['Feb 2026', 'Mar 2026', 'Jan 2026']);
  t.true(labels.includes('Feb 2026'));
  const ascending = await drawn(buildChartSpec(settings({ type: 'bar', sort: 'y-ascending', dateFormat: 'auto' }), COLUMNS)!, MONTHS);
  t.deepEqual(ascending.bars.map((b) => b.label), ['Jan 2026', 'Mar 2026', 'Feb 2026'], 'with "Automatic" too, at the data\'s period');
});

test('bars over dates in date order stay on a time axis, ascending or descending', async (t) => {
  const x = (sort: ChartSettings['sort']) => (buildChartSpec(settings({ type: 'bar', sort, dateFormat: 'month' }), COLUMNS)!['encoding'] as Record<string, Record<string, unknown>>)['x'];
  t.like(x('none'), { type: 'temporal', timeUnit: 'yearmonth' });
  t.like(x('x-descending'), { type: 'temporal', sort: 'descending' });
  const { bars } = await drawn(buildChartSpec(settings({ type: 'bar', sort: 'x-descending', dateFormat: 'month' }), COLUMNS)!, MONTHS);
  t.deepEqual(bars.map((b) => b.label), ['Mar 2026', 'Feb 2026', 'Jan 2026']);
});

test('bars over an "Automatic" date axis are a period wide, labelled at the period, inside the chart', async (t) => {
  const spec = buildChartSpec(settings({ type: 'bar', dateFormat: 'auto' }), COLUMNS)!;
  const { bars, labels, width } = await drawn(spec, MONTHS);
  t.is(bars.length, 3);
  for (const bar of bars) t.true(bar.width > width / 6, `${bar.label}: ${bar.width} px of ${width}`);
  t.true(bars[2]!.left + bars[2]!.width <= width, 'the last bar inside the chart');
  t.deepEqual(bars.map((b) => b.label), ['Jan 2026', 'Feb 2026', 'Mar 2026']);
  t.true(labels.includes('Jan 2026'), labels.join('|'));
  t.false(labels.some((l) => /^[A-Z][a-z]{2} \d\d$/.test(l)), `no daily ticks: ${labels.join('|')}`);
});

test('the spec built with the x values knows the period; drawn over rows of another period it follows them', async (t) => {
  const x = (values: unknown[]) => (buildChartSpec(settings({ type: 'bar' }), COLUMNS, undefined, values)!['encoding'] as Record<string, Record<string, unknown>>)['x'];
  t.like(x(MONTHS.map((r) => r[0])), { type: 'temporal', timeUnit: 'yearmonth', axis: { format: '%b %Y' } });
  t.like(x(['2024-01-01', '2025-01-01']), { timeUnit: 'year', axis: { format: '%Y' } });
  const years = await drawn(buildChartSpec(settings({ type: 'bar' }), COLUMNS, undefined, MONTHS.map((r) => r[0]))!, [['2024-01-01', '1'], ['2025-01-01', '2']]);
  t.deepEqual(years.bars.map((b) => b.label), ['2024', '2025']);
});

test('the period of a column of dates', (t) => {
  t.is(datePeriodOf(['2026-01-01', '2026-02-01', null]), 'month');
  t.is(datePeriodOf(['2024-01-01', '2025-01-01']), 'year');
  t.is(datePeriodOf(['2026-01-01', '2026-04-01', '2026-10-01']), 'quarter');
  t.is(datePeriodOf(['2026-01-01', '2026-01-02']), 'day');
  t.is(datePeriodOf(['2026-01-01T00:00:00', '2026-02-01 00:00:00']), 'month', 'timestamps at midnight');
  t.is(datePeriodOf(['2026-01-01T10:30:00']), undefined, 'times of day have no period');
  t.is(datePeriodOf(['not a date']), undefined);
  t.is(datePeriodOf([]), undefined);
});

test('a line or area over time keeps its time axis and date order: the value sorts are not offered there', (t) => {
  for (const type of ['line', 'area', 'scatter'] as const) {
    const x = (buildChartSpec(settings({ type, sort: 'y-descending', dateFormat: 'month' }), COLUMNS)!['encoding'] as Record<string, Record<string, unknown>>)['x']!;
    t.is(x['type'], 'temporal', type);
    t.is(x['sort'], undefined, type);
    t.deepEqual(sortsFor(settings({ type }), COLUMNS), ['none', 'x-ascending', 'x-descending'], type);
  }
  t.true(sortsFor(settings({ type: 'bar' }), COLUMNS).includes('y-descending'));
  t.true(sortsFor(settings({ type: 'line', x: 'revenue' }), COLUMNS).includes('y-descending'), 'over categories or numbers, every sort');
});
