// The chart controls' spec builder (src/shared/chart-spec.ts), without a browser: every type
// compiles with Vega-Lite and draws with Vega over real rows (the data put in as the client does,
// saved/chart-over.ts), formats and sorts land where Vega-Lite reads them, and the choices come back
// from a saved spec, or from a spec the agent made.
import test from 'ava';
import { compile } from 'vega-lite';
import { parse, View } from 'vega';
import { buildChartSpec, CHART_TYPES, defaultSettings, settingsOfSpec, type ChartSettings, type Column } from '../../src/shared/chart-spec.ts';
import { chartOver } from '../../web/src/saved/chart-over.ts';

const COLUMNS: Column[] = [
  { name: 'month', type: 'DATE' },
  { name: 'status', type: 'VARCHAR' },
  { name: 'revenue', type: 'DECIMAL(18,2)' },
  { name: 'orders', type: 'BIGINT' },
];
const ROWS = [
  ['2026-01-01', 'completed', '1200.50', 10],
  ['2026-02-01', 'completed', '900.25', 7],
  ['2026-02-01', 'returned', '80.00', 1],
];
const settings = (s: Partial<ChartSettings>): ChartSettings => ({ ...defaultSettings(COLUMNS), ...s });

/** The SVG Vega draws for a spec over the rows. */
async function draw(spec: Record<string, unknown>): Promise<string> {
  const view = new View(parse(compile(chartOver(spec, { columns: COLUMNS, rows: ROWS }) as never).spec), { renderer: 'none' });
  return view.toSVG();
}

test('first choices: a date along x, the first number up y, as a line', (t) => {
  t.like(defaultSettings(COLUMNS), { type: 'line', x: 'month', y: 'revenue', series: undefined, sort: 'none' });
  t.like(defaultSettings([{ name: 'status', type: 'VARCHAR' }, { name: 'n', type: 'BIGINT' }]), { type: 'bar', x: 'status', y: 'n' });
  t.like(defaultSettings([{ name: 'total', type: 'DOUBLE' }]), { type: 'number', x: undefined, y: 'total' });
});

test('every chart type compiles and draws over the rows; "table" is no chart', async (t) => {
  for (const type of CHART_TYPES) {
    const spec = buildChartSpec(settings({ type, x: type === 'scatter' ? 'orders' : 'status', series: type === 'pie' ? undefined : 'status' }), COLUMNS, 'Revenue');
    if (type === 'table') {
      t.is(spec, null);
      continue;
    }
    t.truthy(spec, type);
    const svg = await draw(spec!);
    t.regex(svg, /<svg/, type);
    t.regex(svg, /Revenue/, `${type}: the title is drawn`);
  }
});

test('a single number shows the first row\'s value in the chosen format', async (t) => {
  const spec = buildChartSpec(settings({ type: 'number', y: 'revenue', numberFormat: 'decimal' }), COLUMNS)!;
  t.deepEqual(spec['encoding'], { text: { field: 'revenue', type: 'quantitative', format: ',.2f' } });
  const svg = await draw(spec);
  t.regex(svg, />1,200\.50</);
  t.notRegex(svg, />900\.25</);
});

test('number and date formats reach the axes; series color the marks', (t) => {
  const spec = buildChartSpec(settings({ type: 'bar', x: 'month', y: 'orders', series: 'status', numberFormat: 'integer', dateFormat: 'month' }), COLUMNS)!;
  const enc = spec['encoding'] as Record<string, Record<string, unknown>>;
  t.deepEqual(enc['y'], { field: 'orders', type: 'quantitative', format: ',.0f', axis: { format: ',.0f' } });
  t.like(enc['x'], { field: 'month', type: 'temporal', timeUnit: 'yearmonth', axis: { format: '%b %Y' } });
  t.deepEqual(enc['color'], { field: 'status', type: 'nominal' });
  t.is((spec['mark'] as { type: string }).type, 'bar');
  t.is(spec['data'], undefined, 'no rows in the spec: they are put in when drawn');
});

test('sorts: by the axis\' values or by the measure, either way', (t) => {
  const x = (sort: ChartSettings['sort']) => ((buildChartSpec(settings({ type: 'bar', x: 'status', sort }), COLUMNS)!['encoding'] as Record<string, Record<string, unknown>>)['x']!['sort']);
  t.is(x('none'), undefined);
  t.is(x('x-ascending'), 'ascending');
  t.is(x('x-descending'), 'descending');
  t.is(x('y-ascending'), 'y');
  t.is(x('y-descending'), '-y');
  const pie = buildChartSpec(settings({ type: 'pie', x: 'status', sort: 'y-descending' }), COLUMNS)!;
  t.deepEqual((pie['encoding'] as Record<string, Record<string, unknown>>)['color']!['sort'], { field: 'revenue', order: 'descending' });
});

test('the choices come back from a saved spec, and are read from the encoding of a spec made elsewhere', (t) => {
  const chosen = settings({ type: 'area', x: 'month', y: 'orders', series: 'status', sort: 'x-descending', numberFormat: 'compact', dateFormat: 'year' });
  t.deepEqual(settingsOfSpec(JSON.parse(JSON.stringify(buildChartSpec(chosen, COLUMNS))), COLUMNS), chosen);
  const agent = { mark: 'bar', encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } } };
  t.like(settingsOfSpec(agent, COLUMNS), { type: 'bar', x: 'status', y: 'orders', series: undefined });
  t.like(settingsOfSpec({ mark: { type: 'arc' }, encoding: { theta: { field: 'orders' }, color: { field: 'status' } } }, COLUMNS), { type: 'pie', x: 'status', y: 'orders' });
  t.like(settingsOfSpec(null, COLUMNS), { type: 'table' });
  t.like(settingsOfSpec({ usermeta: { sextant: { type: 'hologram' } }, mark: 'point', encoding: {} }, COLUMNS), { type: 'scatter' }, 'a kept choice that is not a type is not trusted');
  t.deepEqual(
    settingsOfSpec({ usermeta: { sextant: { type: 'bar', x: 'status', y: 7, series: { evil: true }, sort: 'sideways', numberFormat: 'percent', dateFormat: '%n' } } }, COLUMNS),
    { type: 'bar', x: 'status', y: undefined, series: undefined, sort: 'none', numberFormat: 'percent', dateFormat: 'auto' },
    'each kept choice only when the controls offer it',
  );
});
