// Turns a plan into one SELECT (DuckDB/PostgreSQL syntax): joins along documented relationships, a
// governed metric's expression and filter with their columns qualified, literal dates, safely quoted
// values. Values are never rounded here: rounding is for display only (wording.ts).
import { rewriteColumns, tokenizeExpression, type ColumnReference } from '../../sql-expression.ts';
import type { MetricDoc, TableDocument } from '../ports.ts';
import { docKey } from './joins.ts';
import { isPeriod, type Bucket } from './intent.ts';
import { metricOf, onePerGroup, ranksByChange, type ColumnRef, type Plan } from './plan.ts';
import type { Display } from './display.ts';
import type { Period } from './periods.ts';
import { columnCurrency, measureFormat } from './units.ts';
import { leaderOf, PER_WORDS, titleOf } from './titles.ts';
import { singular } from './vocabulary.ts';

const ident = (s: string) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const tableSql = (t: TableDocument) => `${ident(t.schema)}.${ident(t.name)}`;

export interface BuiltQuery {
  sql: string;
  connectionId: string;
  title: string;
  /** Output column of the measure, and of the first dimension when grouped. */
  valueColumn: string;
  labelColumn: string | undefined;
  timeSeries: boolean;
  /** How the measure is shown (the metric's format, or the currency of the column it reads). */
  format: string | undefined;
  /** The time bucket the label column holds, so that the text reads `2025 Q2`, not its first day. */
  bucket?: Bucket;
  /** The units the question asked the text in. */
  display?: Display;
  /** The words for a ranking's one row: "Segment with the most customers". */
  leader?: string;
  /** The text states the change from the first row to the second (two periods compared). */
  change?: true;
  /** Each row has its change from the period before, in the two columns after the measure (plan.steps). */
  steps?: Bucket;
  /** Each row has its rank within its group in the column after the measure (plan.within). */
  within?: true;
  /** The result is rows of a table, not a measure (`valueColumn` is empty): each column's display format. */
  listing?: { formats: (string | undefined)[] };
}

/** The SQL of a plan; undefined when a metric's expression cannot be written over the plan's tables. */
export function buildSql(plan: Plan): BuiltQuery | undefined {
  const aliases = new Map<string, string>([[docKey(plan.subject), 't0']]);
  const joins = plan.joins.map((e) => {
    const alias = `t${aliases.size}`;
    aliases.set(docKey(e.to), alias);
    return `JOIN ${tableSql(e.to)} AS ${alias} ON ${aliases.get(docKey(e.from))}.${ident(e.fromColumn)} = ${alias}.${ident(e.toColumn)}`;
  });
  const col = (ref: ColumnRef) => `${aliases.get(docKey(ref.table))}.${ident(ref.column.name)}`;
  const metricSql = (source: string) => {
    const tokens = tokenizeExpression(source);
    return typeof tokens === 'string' ? undefined : rewriteColumns(tokens, (ref) => qualify(plan, aliases, ref));
  };
  if (plan.measure.kind === 'rows') return rowsSql(plan, plan.measure, col, joins);
  const metric = metricOf(plan);
  const measure = measureSql(plan, col, metricSql);
  const filter = metric?.filter ? metricSql(metric.filter) : '';
  if (measure === undefined || filter === undefined) return undefined;

  const { select, group, order, names } = dimensionsSql(plan, col);
  const valueColumn = valueName(plan, metric);
  select.push(`${measure} AS ${ident(valueColumn)}`);
  const where = [...(filter ? [`(${filter})`] : []), ...filtersSql(plan, col)];
  const lines = [`SELECT ${select.join(', ')}`, `FROM ${tableSql(plan.subject)} AS t0`, ...joins];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (group.length > 0) lines.push(`GROUP BY ${group.join(', ')}`);
  if (plan.having && group.length > 0) lines.push(`HAVING ${measure} ${plan.having.op} ${plan.having.value}`);
  // Periods whose changes are worked out outside (stepsSql) are ordered, ranked and cut there.
  if (plan.order === 'time') lines.push(...(plan.steps ? [] : [`ORDER BY ${order.join(', ')}`]));
  else if (plan.order && !plan.within && !plan.steps) lines.push(`ORDER BY ${select.length} ${plan.order.toUpperCase()}${order.length > 0 ? `, ${order.join(', ')}` : ''}`);
  if (plan.limit !== undefined && !plan.within && !plan.steps) lines.push(`LIMIT ${plan.limit}${plan.offset ? ` OFFSET ${plan.offset}` : ''}`);
  return {
    sql: plan.steps ? stepsSql(plan, plan.steps, lines.join('\n'), valueColumn) : plan.within ? withinSql(plan, lines.join('\n'), valueColumn) : lines.join('\n'),
    connectionId: plan.subject.connection,
    title: titleOf(plan),
    valueColumn,
    labelColumn: names.find((n) => n !== undefined),
    timeSeries: plan.dimensions.some((d) => d.kind === 'bucket' && isPeriod(d.bucket)),
    format: measureFormat(plan),
    ...(plan.dimensions[0]?.kind === 'bucket' ? { bucket: plan.dimensions[0].bucket } : {}),
    ...(plan.display ? { display: plan.display } : {}),
    ...(plan.change ? { change: true as const } : {}),
    ...(plan.steps ? { steps: plan.steps.bucket } : {}),
    ...(plan.within ? { within: true as const } : {}),
    ...(plan.limit === 1 && plan.dimensions.length === 1 ? { leader: leaderOf(plan) } : {}),
  };
}

/** The output columns of a dimension. */
const dimensionNames = (d: Plan['dimensions'][number]): string[] =>
  d.kind === 'bucket' ? [d.bucket] : d.kind === 'column' ? [d.ref.column.name] : [...(d.key ? [d.key.column.name] : []), d.label.column.name];

/**
 * Each period's change from the one before ("revenue growth by month in 2025"): LAG over the grouped
 * query's periods (within each other group), then the period read only for the first change dropped.
 * Ranked by the change ("which channel grew the most in 2025"): the groups by their later period's
 * change, those without an earlier period last (no dialect's NULLS LAST is needed for it).
 */
function stepsSql(plan: Plan, steps: NonNullable<Plan['steps']>, inner: string, valueColumn: string): string {
  const groups = plan.dimensions.flatMap(dimensionNames);
  const others = groups.filter((n) => n !== steps.bucket).map(ident);
  const [v, bucket, change] = [ident(valueColumn), ident(steps.bucket), ident(`${valueColumn}_change`)];
  const lag = `LAG(${v}) OVER (${others.length > 0 ? `PARTITION BY ${others.join(', ')} ` : ''}ORDER BY ${bucket})`;
  const ranked = ranksByChange(plan);
  return [
    'SELECT * FROM (',
    `SELECT *, ${v} - ${lag} AS ${change}, (${v} - ${lag}) * 1.0 / NULLIF(${lag}, 0) AS ${ident(`${valueColumn}_change_pct`)}`,
    `FROM (\n${inner}\n) AS per_period`,
    ') AS stepped',
    ...(steps.from ? [`WHERE ${bucket} >= DATE '${steps.from}'`] : []),
    ranked ? `ORDER BY CASE WHEN ${change} IS NULL THEN 1 ELSE 0 END, ${change} ${plan.order!.toUpperCase()}, ${groups.map(ident).join(', ')}` : `ORDER BY ${groups.map(ident).join(', ')}`,
    ...(ranked && plan.limit !== undefined ? [`LIMIT ${plan.limit}`] : []),
  ].join('\n');
}

/**
 * "Top 3 products per category": the grouped query's rows numbered by the measure within each
 * combination of the other dimensions (ROW_NUMBER, ties broken by the ranked group's columns), the
 * first `limit` of each kept, each group's rows together.
 */
function withinSql(plan: Plan, inner: string, valueColumn: string): string {
  const [ranked, ...others] = plan.dimensions;
  const partition = others.flatMap(dimensionNames).map(ident);
  const tie = dimensionNames(ranked!).map(ident);
  const dir = plan.order === 'asc' ? 'ASC' : 'DESC';
  return [
    'SELECT * FROM (',
    `SELECT *, ROW_NUMBER() OVER (PARTITION BY ${partition.join(', ')} ORDER BY ${ident(valueColumn)} ${dir}, ${tie.join(', ')}) AS rank_in_group`,
    `FROM (\n${inner}\n) AS per_group`,
    ') AS ranked',
    `WHERE rank_in_group <= ${plan.limit}`,
    `ORDER BY ${[...partition, 'rank_in_group'].join(', ')}`,
  ].join('\n');
}

/** The rows of a list: its columns (a joined table's named apart when two share a name), filters, order and limit. */
function rowsSql(plan: Plan, m: Extract<Plan['measure'], { kind: 'rows' }>, col: (ref: ColumnRef) => string, joins: string[]): BuiltQuery {
  const names = new Set<string>();
  const select = m.columns.map((ref) => {
    const name = names.has(ref.column.name) ? `${ref.table.name}_${ref.column.name}` : ref.column.name;
    names.add(name);
    return name === ref.column.name ? col(ref) : `${col(ref)} AS ${ident(name)}`;
  });
  const where = filtersSql(plan, col);
  const lines = [`SELECT ${m.distinct ? 'DISTINCT ' : ''}${select.join(', ')}`, `FROM ${tableSql(plan.subject)} AS t0`, ...joins];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (m.sort.length > 0) lines.push(`ORDER BY ${m.sort.map((s) => `${col(s.ref)} ${s.dir.toUpperCase()}`).join(', ')}`);
  if (plan.limit !== undefined) lines.push(`LIMIT ${plan.limit}`);
  return { sql: lines.join('\n'), connectionId: plan.subject.connection, title: titleOf(plan), valueColumn: '', labelColumn: undefined, timeSeries: false, format: undefined, listing: { formats: m.columns.map((ref) => columnCurrency(ref.table, ref.column.name)) } };
}

/** A metric's column reference as `alias.column`: its own table's, or a joined table's by name. */
function qualify(plan: Plan, aliases: Map<string, string>, ref: ColumnReference): string | undefined {
  const table = ref.table ? plan.tables.find((t) => t.name.toLowerCase() === ref.table!.toLowerCase()) : plan.subject;
  const alias = table && aliases.get(docKey(table));
  return alias ? `${alias}.${ident(ref.column)}` : undefined;
}

/**
 * The measure's SQL: divided by the units of the period for "average daily ...", or the part's over the
 * whole for a share (decimal factors: no dialect divides integers; a whole of none is no share).
 */
function measureSql(plan: Plan, col: (ref: ColumnRef) => string, metricSql: (s: string) => string | undefined): string | undefined {
  const total = totalSql(plan, col, metricSql);
  if (total === undefined) return undefined;
  if (plan.share) {
    const part = partSql(total, filtersSql({ ...plan, filters: plan.share.filters }, col).join(' AND '));
    return part && `${part} * 1.0 / NULLIF(${total}, 0)`;
  }
  if (plan.perEach) return `${total} * 1.0 / NULLIF(COUNT(DISTINCT ${col(plan.perEach.ref)}), 0)`;
  const units = plan.perUnit?.units;
  return units === undefined ? total : `${total} / ${Number.isInteger(units) ? `${units}.0` : units}`;
}

/** An additive aggregate (units.ts addsUp) of the rows a condition keeps: `SUM(x)` as `SUM(CASE WHEN c THEN x END)`. */
function partSql(total: string, condition: string): string | undefined {
  const call = /^\s*(sum|count)\s*\(\s*(distinct\s+)?(.*)\)\s*$/is.exec(total);
  if (!call) return undefined;
  const [, fn, distinct, arg] = call;
  return `${fn!.toUpperCase()}(${distinct ? 'DISTINCT ' : ''}CASE WHEN ${condition} THEN ${arg!.trim() === '*' ? '1' : arg} END)`;
}

function totalSql(plan: Plan, col: (ref: ColumnRef) => string, metricSql: (s: string) => string | undefined): string | undefined {
  const m = plan.measure;
  if (m.kind === 'metric') return metricSql(m.metric.expression);
  if (m.kind === 'count') return m.distinct ? `COUNT(DISTINCT ${col(m.distinct)})` : 'COUNT(*)';
  if (m.kind === 'rows') return undefined;
  // The ordered-set form both PostgreSQL and DuckDB read (PostgreSQL has no MEDIAN).
  if (m.aggregate === 'median') return `PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY ${col(m.ref)})`;
  return `${m.aggregate.toUpperCase()}(${col(m.ref)})`;
}

/**
 * The day of the week by name, as PostgreSQL and DuckDB both read it (ISODOW: Monday 1 to Sunday 7);
 * the groups are ordered by that number, not by their names.
 */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const isoDow = (date: string) => `EXTRACT(ISODOW FROM ${date})`;
const weekdaySql = (date: string) => `CASE ${isoDow(date)} ${WEEKDAYS.map((d, i) => `WHEN ${i + 1} THEN '${d}'`).join(' ')} END`;

/** The grouped columns: their SELECT items, GROUP BY positions, ORDER BY keys in time order, and names. */
function dimensionsSql(plan: Plan, col: (ref: ColumnRef) => string): { select: string[]; group: number[]; order: string[]; names: string[] } {
  const select: string[] = [];
  const group: number[] = [];
  const order: string[] = [];
  const names: string[] = [];
  const add = (sql: string, name: string, orderKey?: string) => {
    select.push(`${sql} AS ${ident(name)}`);
    group.push(select.length);
    order.push(orderKey ?? String(select.length));
    names.push(name);
  };
  for (const d of plan.dimensions) {
    if (d.kind === 'bucket' && d.bucket === 'weekday') add(weekdaySql(col(d.ref)), 'weekday', `MIN(${isoDow(col(d.ref))})`);
    else if (d.kind === 'bucket') add(`date_trunc('${d.bucket}', ${col(d.ref)})`, d.bucket);
    else if (d.kind === 'column') add(col(d.ref), d.ref.column.name);
    else {
      if (d.key) add(col(d.key), d.key.column.name);
      add(col(d.label), d.label.column.name);
    }
  }
  // The label people read comes after a key column.
  const label = plan.dimensions[0]?.kind === 'label' ? plan.dimensions[0].label.column.name : names[0];
  return { select, group, order, names: label ? [label, ...names] : names };
}

function filtersSql(plan: Plan, col: (ref: ColumnRef) => string): string[] {
  return plan.filters.flatMap((f) => {
    // Left out: rows of no known value are kept too ("orders not cancelled" includes those without a status).
    if (f.kind === 'values' && f.not) return [`(${col(f.ref)} IS NULL OR ${col(f.ref)} NOT IN (${f.values.map(literal).join(', ')}))`];
    if (f.kind === 'values') return [f.values.length === 1 ? `${col(f.ref)} = ${literal(f.values[0]!)}` : `${col(f.ref)} IN (${f.values.map(literal).join(', ')})`];
    if (f.kind === 'compare') return [`${col(f.ref)} ${f.op} ${f.value}`];
    if (f.kind === 'related') return [relatedSql(f, col)];
    if (f.kind === 'days') return [`${isoDow(col(f.ref))} ${f.days.days.length === 1 ? `= ${f.days.days[0]}` : `IN (${f.days.days.join(', ')})`}`];
    return periodSql(col(f.ref), f.period);
  });
}

function periodSql(column: string, { from, to, between }: Period): string[] {
  return [
    ...(from ? [`${column} >= DATE '${from}'`] : []),
    ...(to ? [`${column} < DATE '${to}'`] : []),
    ...(between ? [`(${column} < DATE '${between.from}' OR ${column} >= DATE '${between.to}')`] : []),
  ];
}

/** A count of the rows pointing to each kept row, correlated: the kept rows are never repeated by a join. */
function relatedSql(f: Extract<Plan['filters'][number], { kind: 'related' }>, col: (ref: ColumnRef) => string): string {
  // Through a table between, its distinct pointers to the counted rows, joined to them only for a period.
  const { via, period, compares = [] } = f;
  const join = via && (period || compares.length > 0) ? ` JOIN ${tableSql(f.counted)} AS c ON c.${ident(via.countedKey)} = r.${ident(via.toCounted)}` : '';
  const at = (column: string) => `${via ? 'c' : 'r'}.${ident(column)}`;
  const where = [`r.${ident(f.column)} = ${col(f.ref)}`, ...(period ? periodSql(at(period.column), period.period) : []), ...compares.map((c) => `${at(c.column)} ${c.op} ${c.value}`)];
  const count = via ? `COUNT(DISTINCT r.${ident(via.toCounted)})` : 'COUNT(*)';
  return `(SELECT ${count} FROM ${tableSql(via?.table ?? f.counted)} AS r${join} WHERE ${where.join(' AND ')}) ${f.op} ${f.value}`;
}

function valueName(plan: Plan, metric: MetricDoc | undefined): string {
  const name = totalName(plan, metric);
  if (plan.perEach) return `${name}_per_${plan.perEach.noun.replace(/ /g, '_')}`;
  return plan.share ? `share_${name}` : plan.perUnit ? `avg_${PER_WORDS[plan.perUnit.bucket]}_${name}` : name;
}

function totalName(plan: Plan, metric: MetricDoc | undefined): string {
  if (metric) return metric.name;
  const m = plan.measure;
  if (m.kind !== 'column') return m.kind === 'rows' ? '' : `${singular(plan.subject.name)}_count`;
  if (m.aggregate === 'sum' && onePerGroup(plan.dimensions, m.ref)) return m.ref.column.name;
  return `${m.aggregate === 'sum' ? 'total' : m.aggregate}_${m.ref.column.name}`.replace(/^total_total_/, 'total_');
}
