// make_chart: a Vega-Lite specification over a kept dataframe.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NotFound, ValidationFailed } from '../../errors.ts';
import { defineTool } from './tool.ts';

const MARKS = ['bar', 'line', 'point', 'arc', 'area'] as const;
/** A value Vega-Lite reads as a date: an ISO month (`2025-01`, as SQLite's strftime writes one) or date, with or without its time. */
const ISO_DATE = /^\d{4}-\d{2}(-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s?(Z|[+-]\d{2}(:?\d{2})?)?)?)?$/;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** Rows embedded in a chart specification. */
export const CHART_MAX_ROWS = 5_000;

/** Builds a Vega-Lite chart of two or three columns of a df_key. */
export const makeChart = defineTool({
  spec: {
    name: 'make_chart',
    description: 'Draws a chart (Vega-Lite) from a result kept under df_key: x and y are column names, color an optional third column.',
    parameters: {
      type: 'object',
      properties: {
        df_key: { type: 'string' },
        type: { type: 'string', enum: [...MARKS] },
        x: { type: 'string' },
        y: { type: 'string' },
        color: { type: 'string' },
        title: { type: 'string' },
      },
      required: ['df_key', 'type', 'x', 'y'],
    },
  },
  args: z.object({ df_key: z.string(), type: z.enum(MARKS), x: z.string(), y: z.string(), color: z.string().optional(), title: z.string().max(300).optional() }),
  async execute(a, ctx) {
    const df = ctx.state.dataframes.get(a.df_key);
    if (!df) throw new NotFound(`No result with df_key ${a.df_key} in this run`, 'DF_KEY_NOT_FOUND');
    for (const col of [a.x, a.y, a.color].filter((c): c is string => c !== undefined)) {
      if (!df.columns.includes(col)) throw new ValidationFailed([{ loc: ['make_chart', col], msg: `Unknown column ${col}; columns are ${df.columns.join(', ')}`, type: 'value_error' }]);
    }
    const values = df.rows.slice(0, CHART_MAX_ROWS).map((r) => Object.fromEntries(df.columns.map((c, i) => [c, numeric(r[i])])));
    const yType = values.every((v) => typeof v[a.y] === 'number' || v[a.y] === null) ? 'quantitative' : 'nominal';
    // Dates by their column's name and their values: a `weekday` of names is no date.
    const dated = /date|month|year|day|week/i.test(a.x) && values.every((v) => v[a.x] === null || v[a.x] instanceof Date || (typeof v[a.x] === 'string' && ISO_DATE.test(v[a.x] as string)));
    const xType = dated ? 'temporal' : values.every((v) => typeof v[a.x] === 'number') && a.type !== 'bar' ? 'quantitative' : 'nominal';
    // Bars by their value, largest first; the days of a week keep their order.
    const sort = values.every((v) => WEEKDAYS.includes(v[a.x] as string)) ? WEEKDAYS : '-y';
    // A share's axis reads 8%, not 0.08, as its table and text do (the result's display format).
    const yAxis = df.formats?.[a.y] === 'percent' ? { axis: { format: '.0%' } } : {};
    const spec: Record<string, unknown> = {
      // The major version of the Vega-Lite that draws it, in the web client and for PNGs (test/agent/tools checks it).
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      ...(a.title ? { title: a.title } : {}),
      data: { values },
      mark: { type: a.type, tooltip: true },
      encoding:
        a.type === 'arc'
          ? { theta: { field: a.y, type: 'quantitative' }, color: { field: a.x, type: 'nominal' } }
          : {
              x: { field: a.x, type: xType, ...(xType === 'nominal' ? { sort } : {}) },
              y: { field: a.y, type: yType, ...yAxis },
              ...(a.color ? { color: { field: a.color, type: 'nominal' } } : {}),
            },
    };
    const chartId = `chart_${randomBytes(6).toString('hex')}`;
    ctx.state.charts.push({ chartId, dfKey: df.dfKey, type: a.type, spec });
    ctx.emit({ type: 'chart', call_id: ctx.callId, chart_id: chartId, df_key: df.dfKey, spec });
    return { content: JSON.stringify({ chart_id: chartId }), summary: `${a.type} chart of ${a.y} by ${a.x}` };
  },
});

/** Decimal strings become numbers so the chart scales are quantitative. */
function numeric(v: unknown): unknown {
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (typeof v === 'bigint') return Number(v);
  return v;
}
