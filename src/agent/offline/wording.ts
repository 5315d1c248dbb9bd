// How the offline model words its answers: values in the metric's display format (the data itself
// stays unrounded), the metric and the knowledge an answer used, and the no-data answer.
import { listDigits } from '../../shared/format-cell.ts';
import type { CoverageDoc } from '../ports.ts';
import type { BuiltQuery } from './build-sql.ts';
import { metricOf, type PerEachCount, type Plan, type UnitCount } from './plan.ts';
import type { Bucket } from './intent.ts';
import type { Period } from './periods.ts';
import { displayWords } from './units.ts';
import type { Schema } from './vocabulary.ts';

const LISTED = 10;

const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v) ? Number(v) : undefined);

/**
 * Formats a value the way people read it: `format` is a metric's (`integer`, `decimal`, `percent` or a
 * currency code); a percentage in a list has the list's `digits` (listDigits), alone at most one.
 */
export function formatValue(v: unknown, format?: string, digits?: number): string {
  if (v === null || v === undefined) return 'none';
  const n = asNumber(v);
  if (n === undefined) return String(v).replace(/T00:00:00(\.000)?Z?$/, '').replace(/ 00:00:00$/, '');
  if (format === 'integer') return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (format === 'percent') return n.toLocaleString('en-US', { style: 'percent', minimumFractionDigits: digits ?? 0, maximumFractionDigits: digits ?? 1 });
  if (format && /^[A-Z]{3}$/.test(format)) return n.toLocaleString('en-US', { style: 'currency', currency: format });
  if (format === 'decimal' || !Number.isInteger(n)) return n.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
  return n.toLocaleString('en-US');
}

const isId = (column: string) => /(^|_)id$/i.test(column);

/**
 * The words that name a row of a result grouped by several columns: its values but the last (the
 * measure), without the ids when a name stands beside them ("Pro Building Sets 194", not "194, Pro
 * Building Sets 194": the id is for the query, the name for the reader).
 */
function labelParts(columns: string[], row: unknown[]): string[] {
  const keys = columns.slice(0, -1).map((c, i) => ({ c, i }));
  const named = keys.filter((k) => !isId(k.c));
  // A time bucket's column is named by its bucket (build-sql.ts): "Jan 2025, cancelled", not "2025-01-01, cancelled".
  return (named.length > 0 ? named : keys).map((k) => (BUCKETS.includes(k.c as Bucket) ? formatBucket(row[k.i], k.c as Bucket) : formatValue(row[k.i])));
}

const BUCKETS: Bucket[] = ['day', 'week', 'month', 'quarter', 'year'];

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A time bucket as people name it: `2025 Q2`, `Apr 2025`, `2025`; days and weeks by their first day. */
export function formatBucket(v: unknown, bucket: Bucket): string {
  const day = /^(\d{4})-(\d{2})-\d{2}/.exec(v instanceof Date ? v.toISOString() : String(v));
  if (!day) return formatValue(v);
  const [year, month] = [day[1]!, Number(day[2])];
  if (bucket === 'year') return year;
  if (bucket === 'quarter') return `${year} Q${Math.floor((month - 1) / 3) + 1}`;
  if (bucket === 'month') return `${MONTH_NAMES[month - 1]} ${year}`;
  return bucket === 'week' ? `week of ${day[0]}` : day[0];
}

/** A number in the scale asked ("in thousands": 2,880.62 for 2,880,619.82); the units are stated once, in the title. */
const scaled = (v: unknown, factor: number) => {
  const n = asNumber(v);
  return n === undefined ? formatValue(v) : (n / factor).toLocaleString('en-US', { maximumFractionDigits: 2 });
};

/** The result in words: a scalar in one line, a grouped result as a short list, a ranking's one row by its name. */
export function describeResult(built: BuiltQuery, content: Record<string, unknown>): string {
  const columns = ((content['columns'] as { name: string }[] | undefined) ?? []).map((c) => c.name);
  const rows = (content['rows'] as unknown[][] | undefined) ?? [];
  const total = Number(content['row_count'] ?? rows.length);
  const vi = columns.indexOf(built.valueColumn);
  const raw = (r: unknown[]) => r[vi >= 0 ? vi : r.length - 1];
  const { display } = built;
  // A share is of the total of every row: with rows missing from the result it cannot be worked out.
  const whole = display?.share && rows.length === total ? rows.reduce((s, r) => s + (asNumber(raw(r)) ?? 0), 0) : undefined;
  const stated = display && (!display.share || whole !== undefined) ? display : undefined;
  const title = stated ? `${built.title}, ${displayWords(stated, built.format)}` : built.title;
  const share = (r: unknown[]) => (whole ? (asNumber(raw(r)) ?? 0) / whole : 0);
  // Percentages of one list read alike: as many digits as tell its values apart.
  const digits = whole !== undefined ? listDigits(rows.map(share), 1, 2, 100) : built.format === 'percent' ? listDigits(rows.map((r) => asNumber(raw(r)) ?? NaN), 1, 2, 100) : undefined;
  const value = (r: unknown[]) =>
    whole !== undefined ? formatValue(share(r), 'percent', digits)
    : display?.scale ? scaled(raw(r), display.scale.factor)
    : formatValue(raw(r), built.format, digits);
  if (built.listing) return listedRows(title, columns, rows, total, content['truncated'] === true, built.listing.formats);
  if (built.labelColumn === undefined) return `${title}: ${rows[0] ? value(rows[0]) : 'none'}.`;
  if (rows.length === 0) return `${title}: no matching rows.`;
  if (built.steps) return `${title}:\n${stepLines(columns, rows, value, built, total)}`;
  if (built.change && columns.length === 3) return `${title}:\n${changesByGroup(columns, rows, value, built.format)}`;
  const li = columns.indexOf(built.labelColumn);
  // A rank within the group after the measure names nothing.
  const named = built.within ? columns.slice(0, vi + 1) : columns;
  const label = (r: unknown[]) => (named.length > 2 ? labelParts(named, r).join(', ') : built.bucket ? formatBucket(r[li], built.bucket) : formatValue(r[li]));
  if (built.leader && rows.length === 1) return `${stated ? `${built.leader}, ${displayWords(stated, built.format)}` : built.leader}: ${label(rows[0]!)} (${value(rows[0]!)}).`;
  const lines = rows.slice(0, LISTED).map((r) => `- ${label(r)}: ${value(r)}`);
  const more = moreRows(total);
  const partial = display?.share && whole === undefined ? '\n(Shares need every row of the result, so the values are shown as they are.)' : '';
  const change = !built.change ? '' : rows.length === 2 ? `\n${changeText(asNumber(raw(rows[0]!)) ?? 0, asNumber(raw(rows[1]!)) ?? 0, built.format)}` : '\n(No change is stated: one of the two periods has no data.)';
  return `${title}:\n${lines.join('\n')}${more}${partial}${change}`;
}

/** What a list of the first LISTED rows says of the others. */
const moreRows = (total: number) => (total > LISTED ? `\n(${total} rows in total; the table has all of them.)` : '');

/** A change with its sign: "+$1,234.00", "-12.3%". */
const signed = (n: number, format: string | undefined) => `${n > 0 ? '+' : n < 0 ? '-' : ''}${formatValue(Math.abs(n), format)}`;

/** "Change: +$1,234.00 (+12.3%)" from the earlier value to the later one, each in the measure's format. */
function changeText(earlier: number, later: number, format: string | undefined): string {
  const diff = later - earlier;
  const pct = earlier === 0 ? '' : ` (${signed(diff / earlier, 'percent')})`;
  return `Change: ${signed(diff, format)}${pct}.`;
}

/** "- Feb 2025: $1,234.00 (+$100.00, +8.8% from the month before)": each period with its change from the one before. */
function stepLines(columns: string[], rows: unknown[][], value: (r: unknown[]) => string, built: BuiltQuery, total: number): string {
  const vi = columns.indexOf(built.valueColumn);
  const unit = built.steps!;
  const lines = rows.slice(0, LISTED).map((r) => {
    const [change, pct] = [asNumber(r[vi + 1]), asNumber(r[vi + 2])];
    const words = change === undefined ? `no ${unit} before it in the data` : `${signed(change, built.format)}${pct === undefined ? '' : `, ${signed(pct, 'percent')}`} from the ${unit} before`;
    return `- ${labelParts(columns.slice(0, vi + 1), r).join(', ')}: ${value(r)} (${words})`;
  });
  return `${lines.join('\n')}${moreRows(total)}`;
}

/**
 * "Revenue growth by channel in 2025": rows of (group, period, value), two periods per group, in words
 * a line for each group with both values and the change between them.
 */
function changesByGroup(columns: string[], rows: unknown[][], value: (r: unknown[]) => string, format: string | undefined): string {
  const groups = new Map<string, unknown[][]>();
  for (const r of rows) groups.set(formatValue(r[0]), [...(groups.get(formatValue(r[0])) ?? []), r]);
  const period = (r: unknown[]) => formatBucket(r[1], columns[1] as Bucket);
  const lines = [...groups].slice(0, LISTED).map(([group, [a, b]]) =>
    b ? `- ${group}: ${value(a!)} in ${period(a!)}, ${value(b)} in ${period(b)}. ${changeText(asNumber(a![2]) ?? 0, asNumber(b[2]) ?? 0, format)}` : `- ${group}: ${value(a!)} in ${period(a!)} only (no change is stated).`,
  );
  const more = groups.size > LISTED ? `\n(${groups.size} groups in total; the table has all of them.)` : '';
  return `${lines.join('\n')}${more}`;
}

/** Rows of a list: how many (a result cut at the row limit says so), the columns named once, then the first few rows' values. */
function listedRows(title: string, columns: string[], rows: unknown[][], total: number, truncated: boolean, formats: (string | undefined)[]): string {
  if (rows.length === 0) return `${title}: no matching rows.`;
  const n = `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'}`;
  const count = truncated ? `the first ${n} of more` : n;
  // Ids as written: order 117613 is not a quantity of 117,613.
  const lines = rows.slice(0, LISTED).map((r) => `- ${r.map((v, i) => (isId(columns[i]!) && v !== null ? String(v) : formatValue(v, formats[i]))).join(', ')}`);
  const more = total <= LISTED ? '' : truncated ? `\n(The table has those ${n}.)` : `\n(The table has all ${n}.)`;
  return `${title} (${count}; ${columns.map((c) => c.replace(/_/g, ' ')).join(', ')}):\n${lines.join('\n')}${more}`;
}

const lastDay = (p: Period) => (p.to ? new Date(Date.parse(`${p.to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10) : undefined);

/** The answer for a period wholly outside the documented coverage. */
export function noDataText(title: string, period: Period, coverage: CoverageDoc): string {
  const asked = !period.from ? `until ${lastDay(period)}` : lastDay(period) ? `${period.from} to ${lastDay(period)}` : `from ${period.from}`;
  return `No data for that period; the data covers ${coverage.first} to ${coverage.last}. (${title}: ${asked}.)`;
}

/** "Per day: the total from 2025-12-01 to 2025-12-31 divided by its 31 days (days without any counted as well)." */
function perUnitText({ bucket, units, from, until }: UnitCount): string {
  const count = bucket === 'week' ? `${formatValue(units)} weeks (its ${Math.round(units * 7)} days divided by 7)` : `${units} ${bucket}${units === 1 ? '' : 's'}`;
  return `Per ${bucket}: the total from ${from} to ${until} divided by its ${count} (${bucket}s without any counted as well).`;
}

/** "Per customer: the total divided by the customers of the rows counted (distinct orders.customer_id); ..." */
function perEachText({ ref, noun }: PerEachCount): string {
  return `Per ${noun}: the total divided by the ${noun}s of the rows counted (distinct ${ref.table.name}.${ref.column.name}); ${noun}s with none of those rows are not counted.`;
}

/**
 * Weeks grouped within a period that does not start or end on a Monday ("revenue by week in October
 * 2025"): a week is named by its Monday, and its row counts only its days in the period, so the first
 * and the last weeks look smaller than the others. Said, not hidden.
 */
function cutWeeks(p: Period): string | undefined {
  const monday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1;
  const ends = [p.from && !monday(p.from) ? `the first only from ${p.from}` : '', p.to && !monday(p.to) ? `the last only until ${lastDay(p)}` : ''].filter(Boolean);
  return ends.length > 0 ? `Weeks start on Monday and count only their days in the period: ${ends.join(', ')}.` : undefined;
}

/** Why the answer means what it means: the coverage caveat, the metric's definition and the knowledge used. */
export function explain(plan: Plan, schema: Schema, partial: CoverageDoc | undefined): string {
  const lines: string[] = [];
  if (partial) lines.push(`The data covers ${partial.first} to ${partial.last}, so this period is only partly covered.`);
  const period = plan.filters.find((f) => f.kind === 'period');
  if (period) lines.push(`The period applies to ${period.ref.table.name}.${period.ref.column.name}.`);
  const cut = period && plan.dimensions.some((d) => d.kind === 'bucket' && d.bucket === 'week') ? cutWeeks(period.period) : undefined;
  if (cut) lines.push(cut);
  if (plan.perUnit) lines.push(perUnitText(plan.perUnit));
  if (plan.perEach) lines.push(perEachText(plan.perEach));
  if (plan.share) lines.push(`Share: the part named divided by the whole that the other conditions keep${plan.dimensions.length > 0 ? ', in each group' : ''}.`);
  const metric = metricOf(plan);
  if (metric) {
    const how = [metric.expression, metric.filter ? `where ${metric.filter}` : '', metric.time_column ? `dated by ${metric.time_column}` : ''].filter(Boolean).join(' ');
    lines.push(`Metric ${metric.name}: ${metric.description} (${how}).`);
  }
  const paths = [...plan.tables, ...plan.joins.map((j) => j.relationship)].map((d) => schema.paths.get(d)).filter((p): p is string => p !== undefined);
  if (paths.length > 0) lines.push(`Knowledge used: ${[...new Set(paths)].join(', ')}.`);
  return lines.join('\n');
}

/** The short wrap-up after a stop: what was done so far. */
export function summarizeSoFar(question: string, results: { name: string; content: Record<string, unknown> }[]): string {
  const sql = [...results].reverse().find((r) => r.name === 'run_sql' && !r.content['error']);
  if (sql) {
    const rows = (sql.content['rows'] as unknown[][] | undefined) ?? [];
    const first = rows[0] ? rows[0].map((x) => formatValue(x)).join(', ') : 'no rows';
    return `Stopped as asked. So far I ran one query for "${question}" and got ${formatValue(sql.content['row_count'] ?? rows.length)} rows (first: ${first}).`;
  }
  const searched = results.some((r) => r.name === 'search_knowledge');
  return `Stopped as asked. ${searched ? 'I had looked up the documentation but not run a query yet.' : 'No work had been done yet.'}`;
}
