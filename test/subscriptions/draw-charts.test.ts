// A report's charts are drawn on the server from the tile's spec over the fresh rows, with an
// "Automatic" date axis settled at the rows' period as the web client draws it: monthly rows get
// month-wide bars, not one-pixel bars on a daily axis.
import test from 'ava';
import { chartPng } from '../../src/charts/chart-png.ts';
import type { Logger } from '../../src/log.ts';
import { buildChartSpec, defaultSettings, settleDates } from '../../src/shared/chart-spec.ts';
import { drawCharts } from '../../src/subscriptions/draw-charts.ts';

const columns = [
  { name: 'm', type: 'DATE' },
  { name: 'revenue', type: 'DOUBLE' },
];
const rows = [
  ['2026-01-01', 500],
  ['2026-02-01', 900],
  ['2026-03-01', 700],
];
const quiet = { warn: () => undefined } as unknown as Logger;

test('an "Automatic" date axis of bars is settled at the rows\' period before the chart is drawn', async (t) => {
  const spec = buildChartSpec({ ...defaultSettings(columns), type: 'bar', x: 'm', y: 'revenue' }, columns)!;
  const objects = rows.map(([m, revenue]) => ({ m, revenue }));
  const settled = settleDates(spec, objects);
  t.like((settled['encoding'] as Record<string, unknown>)['x'], { field: 'm', timeUnit: 'yearmonth' });
  const [drawn] = await drawCharts(quiet, { title: 'Revenue', tiles: [{ title: 'By month', columns, rows, chart: spec, read_at: '2026-04-01T00:00:00.000Z' }] });
  t.is(drawn, (await chartPng({ spec: settled, rows: objects })).toString('base64'));
  t.not(drawn, (await chartPng({ spec, rows: objects })).toString('base64'), 'settling changes what is drawn');
});
