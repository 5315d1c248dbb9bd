// The chart of a result as the person chose it (type, axes, series, sort, formats), turned into the
// Vega-Lite spec the client draws (chart-view.tsx) and the server keeps with a saved question. The
// choices ride along in the spec's `usermeta`, which Vega-Lite ignores, so a saved chart reopens with
// the controls as they were left; a spec made elsewhere (the agent's) is read back from its encoding.
// Pure functions: the same choices always give the same spec. The data is not part of the spec:
// chartOver (web/src/saved/chart-over.ts) puts the rows in when drawing. Shared with the server, which
// settles an "Automatic" date axis the same way when it draws a report's charts (settleDates), so it
// imports nothing.

export const CHART_TYPES = ['bar', 'line', 'area', 'scatter', 'pie', 'number', 'table'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const SORTS = ['none', 'x-ascending', 'x-descending', 'y-ascending', 'y-descending'] as const;
export type ChartSort = (typeof SORTS)[number];
export const NUMBER_FORMATS = ['auto', 'integer', 'decimal', 'percent', 'compact'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];
export const DATE_FORMATS = ['auto', 'day', 'month', 'quarter', 'year'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export interface ChartSettings {
  type: ChartType;
  x: string | undefined;
  y: string | undefined;
  /** A column whose values split the marks into colored series. */
  series: string | undefined;
  sort: ChartSort;
  numberFormat: NumberFormat;
  dateFormat: DateFormat;
}

export interface Column {
  name: string;
  /** The warehouse's type name (BIGINT, DOUBLE, DATE, VARCHAR...), when known. */
  type?: string | undefined;
}

export type Spec = Record<string, unknown>;

/** d3-format strings (Vega-Lite's `format`) per number format; `auto` leaves Vega-Lite's own. */
const NUMBER_D3: Record<NumberFormat, string | undefined> = { auto: undefined, integer: ',.0f', decimal: ',.2f', percent: '.1%', compact: '.3~s' };
/** d3-time-format strings per date format. */
const DATE_D3: Record<DateFormat, string | undefined> = { auto: undefined, day: '%Y-%m-%d', month: '%b %Y', quarter: 'Q%q %Y', year: '%Y' };

const NUMERIC = /^(tiny|small|medium|big|huge)?int|integer|decimal|numeric|double|float|real|number|hugeint|money/i;
const TEMPORAL = /^(date|time|timestamp|datetime|interval)/i;

export const isNumeric = (c: Column) => NUMERIC.test(c.type ?? '');
export const isTemporal = (c: Column) => TEMPORAL.test(c.type ?? '');

/** Sensible first choices for a result: the first date or text column along x, the first number up y. */
export function defaultSettings(columns: Column[]): ChartSettings {
  const y = columns.find(isNumeric) ?? columns[1] ?? columns[0];
  const x = columns.find((c) => c !== y && isTemporal(c)) ?? columns.find((c) => c !== y && !isNumeric(c)) ?? columns.find((c) => c !== y);
  const type: ChartType = !x ? 'number' : isTemporal(x) ? 'line' : 'bar';
  return { type, x: x?.name, y: y?.name, series: undefined, sort: 'none', numberFormat: 'auto', dateFormat: 'auto' };
}

/**
 * The Vega-Lite spec of the choices, or null for "table" (a question with no chart). `xValues`, the x
 * column's values when known, settle an "Automatic" date axis at the data's period (settleDates does
 * the same when the spec is drawn over rows).
 */
export function buildChartSpec(s: ChartSettings, columns: Column[], title?: string, xValues?: readonly unknown[]): Spec | null {
  if (s.type === 'table' || !s.y) return null;
  const base: Spec = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', ...(title ? { title } : {}), usermeta: { sextant: s } };
  const number = NUMBER_D3[s.numberFormat];
  const y = { field: s.y, type: 'quantitative', ...(number ? { format: number, axis: { format: number } } : {}) };
  if (s.type === 'number') {
    // The first row's value, large: a question answered by one number.
    return {
      ...base,
      transform: [{ window: [{ op: 'row_number', as: '__row' }] }, { filter: { field: '__row', equal: 1 } }],
      mark: { type: 'text', fontSize: 48, fontWeight: 'bold' },
      encoding: { text: { field: s.y, type: 'quantitative', ...(number ? { format: number } : {}) } },
    };
  }
  if (!s.x) return null;
  const byName = new Map(columns.map((c) => [c.name, c]));
  const xColumn = byName.get(s.x) ?? { name: s.x };
  if (s.type === 'pie') {
    return {
      ...base,
      mark: { type: 'arc', tooltip: true },
      encoding: { theta: { ...y, stack: true }, color: { field: s.x, type: 'nominal', ...sortOf(s, 'color') }, ...tooltip(s, xColumn, number) },
    };
  }
  const x = xEncoding(s, xColumn, xValues ? datePeriodOf(xValues) : undefined);
  const series = s.series ? { color: { field: s.series, type: isNumeric(byName.get(s.series) ?? { name: s.series }) && s.type === 'scatter' ? 'quantitative' : 'nominal' } } : {};
  const mark = { type: s.type === 'scatter' ? 'point' : s.type, tooltip: true, ...(s.type === 'line' ? { point: true } : {}) };
  return { ...base, mark, encoding: { x, y, ...series } };
}

/** The x encoding: dates by their period (dateAxis), numbers for a scatter, else categories. */
function xEncoding(s: ChartSettings, c: Column, period: DatePeriod | undefined): Spec {
  if (isDateAxis(s, c)) return dateAxis(s, c.name, period);
  if (s.type === 'scatter' && isNumeric(c)) return { field: c.name, type: 'quantitative' };
  return { field: c.name, type: isNumeric(c) ? 'ordinal' : 'nominal', ...sortOf(s, 'x') };
}

/**
 * A date x axis at the chosen grain, or with "Automatic" at the data's period when it is known: the time
 * unit gives each bar a period's width and the labels the period's format. Time stays a continuous
 * (temporal) scale, in date order, ascending or descending. Vega-Lite ignores any other sort on a
 * continuous scale, so a bar chart sorted by the value gets a discrete axis instead (one band per
 * period, labelled in the same format); a line, area or scatter over time keeps its temporal axis and
 * its date order (a line drawn in the order of its values would zigzag across time), so the value sorts
 * are neither offered (chart-controls.tsx) nor applied there.
 */
function dateAxis(s: ChartSettings, field: string, period: DatePeriod | undefined): Spec {
  const grain = s.dateFormat === 'auto' ? period : s.dateFormat;
  const format = grain ? { axis: { format: DATE_D3[grain] } } : {};
  if (s.type === 'bar' && valueSort(s.sort)) return { field, type: 'ordinal', timeUnit: TIME_UNITS[grain ?? 'day'], ...format, ...sortOf(s, 'x') };
  return { field, type: 'temporal', ...(grain ? { timeUnit: TIME_UNITS[grain] } : {}), ...format, ...(valueSort(s.sort) ? {} : sortOf(s, 'x')) };
}

const TIME_UNITS: Record<DatePeriod, string> = { day: 'yearmonthdate', month: 'yearmonth', quarter: 'yearquarter', year: 'year' };

/** A sort by the measure rather than by the axis' own values. */
export const valueSort = (sort: ChartSort) => sort === 'y-ascending' || sort === 'y-descending';

/** Whether the x axis of the choices is drawn as dates (a date column, or any non-number given a date format). */
export const isDateAxis = (s: ChartSettings, c: Column) => isTemporal(c) || (s.dateFormat !== 'auto' && !isNumeric(c));

/** The sorts that mean something for the choices: over dates, only bars are sorted by the value (dateAxis says why). */
export function sortsFor(settings: ChartSettings, columns: Column[]): ChartSettings['sort'][] {
  const x = columns.find((c) => c.name === settings.x);
  const overTime = x !== undefined && isDateAxis(settings, x) && settings.type !== 'bar' && settings.type !== 'pie';
  return overTime ? SORTS.filter((s) => !valueSort(s)) : [...SORTS];
}

/** Vega-Lite's sort of a channel: by the axis' own values or by the y value, either way. */
function sortOf(s: ChartSettings, channel: 'x' | 'color'): Spec {
  switch (s.sort) {
    case 'none':
      return {};
    case 'x-ascending':
      return { sort: 'ascending' };
    case 'x-descending':
      return { sort: 'descending' };
    case 'y-ascending':
      return { sort: channel === 'x' ? 'y' : { field: s.y, order: 'ascending' } };
    case 'y-descending':
      return { sort: channel === 'x' ? '-y' : { field: s.y, order: 'descending' } };
  }
}

function tooltip(s: ChartSettings, x: Column, number: string | undefined): Spec {
  return { tooltip: [{ field: x.name }, { field: s.y, type: 'quantitative', ...(number ? { format: number } : {}) }] };
}

/** A spec made here whose date axis is "Automatic", with its x settled at the period of the rows it is drawn over; any other spec as it is. */
export function settleDates(spec: Spec, rows: readonly Record<string, unknown>[]): Spec {
  if (!keptOf(spec)) return spec;
  const s = settingsOfSpec(spec, []);
  const encoding = spec['encoding'] as Record<string, Spec | undefined> | undefined;
  const x = encoding?.['x'];
  // Only the date axis dateAxis made: a category or number axis carries neither.
  if (s.dateFormat !== 'auto' || !s.x || x?.['field'] !== s.x || !(x['type'] === 'temporal' || x['timeUnit'] !== undefined)) return spec;
  const field = s.x;
  return { ...spec, encoding: { ...encoding, x: dateAxis(s, field, datePeriodOf(rows.map((r) => r[field]))) } };
}

/** The choices kept in a spec made here, when they name a chart type the controls offer. */
function keptOf(spec: Spec): Record<string, unknown> | undefined {
  const kept = (spec['usermeta'] as { sextant?: Record<string, unknown> } | undefined)?.sextant;
  return kept && typeof kept === 'object' && CHART_TYPES.includes(kept['type'] as ChartType) ? kept : undefined;
}

/** The choices a spec was built from: its `usermeta` when it was made here, else read from its mark and encoding. */
export function settingsOfSpec(spec: Spec | null | undefined, columns: Column[]): ChartSettings {
  const fallback = defaultSettings(columns);
  if (!spec) return { ...fallback, type: 'table' };
  const kept = keptOf(spec);
  if (kept) return keptSettings(kept, fallback);
  const markOf = spec['mark'];
  const mark = typeof markOf === 'string' ? markOf : (markOf as { type?: string } | undefined)?.type;
  const enc = (spec['encoding'] ?? {}) as Record<string, { field?: unknown } | undefined>;
  const field = (channel: string) => (typeof enc[channel]?.field === 'string' ? (enc[channel].field as string) : undefined);
  const type: ChartType = mark === 'arc' ? 'pie' : mark === 'point' || mark === 'circle' ? 'scatter' : mark === 'text' ? 'number' : CHART_TYPES.includes(mark as ChartType) ? (mark as ChartType) : fallback.type;
  if (type === 'pie') return { ...fallback, type, x: field('color') ?? fallback.x, y: field('theta') ?? fallback.y };
  return { ...fallback, type, x: field('x') ?? fallback.x, y: field('y') ?? field('text') ?? fallback.y, series: field('color') };
}

/** Kept choices, each taken only when it is one the controls offer (a spec is data anyone could have written). */
function keptSettings(kept: Record<string, unknown>, fallback: ChartSettings): ChartSettings {
  const oneOf = <T extends string>(list: readonly T[], v: unknown, d: T): T => (list.includes(v as T) ? (v as T) : d);
  const name = (v: unknown, d: string | undefined) => (typeof v === 'string' ? v : v === undefined ? d : undefined);
  return {
    type: oneOf(CHART_TYPES, kept['type'], fallback.type),
    x: name(kept['x'], fallback.x),
    y: name(kept['y'], fallback.y),
    series: typeof kept['series'] === 'string' ? kept['series'] : undefined,
    sort: oneOf(SORTS, kept['sort'], fallback.sort),
    numberFormat: oneOf(NUMBER_FORMATS, kept['numberFormat'], fallback.numberFormat),
    dateFormat: oneOf(DATE_FORMATS, kept['dateFormat'], fallback.dateFormat),
  };
}

// The period a column of dates is counted in (monthly revenue is all month starts), read from its values
// so that an "Automatic" date axis gets bars a period wide and labels at the period's grain. Values are
// read as Vega reads a temporal field (`new Date(value)`) and in local time, as Vega-Lite's time units
// are, so a value counts as a month start exactly when the drawn chart would put it on one.

/** The periods a date axis can be counted in, coarsest last. */
export type DatePeriod = 'day' | 'month' | 'quarter' | 'year';

const midnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;

/** The coarsest period every value starts: all 1 January is year, all quarter starts quarter, all month starts month, all midnights day; undefined for times of day or no dates. */
export function datePeriodOf(values: readonly unknown[]): DatePeriod | undefined {
  const dates = values.filter((v) => v !== null && v !== undefined && v !== '').map((v) => new Date(v as string | number));
  if (dates.length === 0 || dates.some((d) => Number.isNaN(d.getTime()) || !midnight(d))) return undefined;
  if (!dates.every((d) => d.getDate() === 1)) return 'day';
  if (dates.every((d) => d.getMonth() === 0)) return 'year';
  if (dates.every((d) => d.getMonth() % 3 === 0)) return 'quarter';
  return 'month';
}
