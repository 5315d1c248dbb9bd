// Turns an intent into a plan. Each table that could be the subject (the tables of the metric or
// column named, or of the table counted) gets a plan in which every other column the question needs
// is joined in along relationships; the plan with the fewest joins wins, and a tie between two
// subjects is ambiguous. Anything the question names that the plan does not use makes it fail.
import type { MetricDoc, TableDocument } from '../ports.ts';
import { isPeriod, type ColumnMention, type Intent, type Measure } from './intent.ts';
import { docKey, keyColumn } from './joins.ts';
import { countedPeriod, countUnits } from './per-unit.ts';
import { perEachOf } from './per-each.ts';
import { countedCompare, relatedFilter } from './related-count.ts';
import { rankedChange, stepwise } from './steps.ts';
import { PlanBuilder } from './plan-builder.ts';
import { addsUp, columnCurrency, comparedCurrencyProblem } from './units.ts';
import { onePerGroup, type ColumnRef, type Dimension, type Filter, type Plan, type PlanMeasure, type UnitCount } from './plan.ts';
import { isDimension, isMeasure, nonAdditive, isTemporal, type Schema } from './vocabulary.ts';

export type Resolution = { ok: true; plan: Plan } | { ok: false; reason: string };

interface Candidate {
  subject: TableDocument;
  measure: PlanMeasure;
}

const refs = (ms: { table: TableDocument; column: ColumnRef['column'] }[]): ColumnRef[] => ms.map((m) => ({ table: m.table, column: m.column }));
const fail = (reason: string): Resolution => ({ ok: false, reason });
const isCount = (m: MetricDoc) => /^\s*count\s*\(\s*\*\s*\)\s*$/i.test(m.expression);

/** The best plan for an intent, or why there is none. */
export function resolvePlan(asked: Intent, schema: Schema): Resolution {
  const intent = stepwise(inWholeUnits(asked));
  if (!intent.measure) return fail('it names nothing to count or measure');
  const results = candidatesOf(intent.measure).map((c) => planFor(c, intent, schema));
  const ok = results.filter((r): r is Extract<Resolution, { ok: true }> => r.ok).sort((a, b) => a.plan.joins.length - b.plan.joins.length);
  const [best, rival] = ok;
  if (!best) return results[0] ?? fail('it names nothing to count or measure');
  if (rival && rival.plan.joins.length === best.plan.joins.length && docKey(rival.plan.subject) !== docKey(best.plan.subject)) {
    return fail(`it could be read on ${best.plan.subject.name} or on ${rival.plan.subject.name}`);
  }
  return best;
}

/**
 * "Revenue by month in the last 12 months", "monthly revenue over the past year": twelve whole months
 * before this one, not a part of a month at each end (a bar of one day first, and one of the month so
 * far last).
 */
function inWholeUnits(intent: Intent): Intent {
  const rolling = intent.period?.rolling;
  const bucket = intent.groups.find((g) => g.kind === 'bucket')?.bucket;
  const whole = !rolling || !bucket ? undefined : bucket === rolling.unit ? rolling.whole : bucket === 'month' || bucket === 'quarter' ? rolling.wholeBy?.[bucket] : undefined;
  if (!whole) return intent;
  const { rolling: _, ...period } = intent.period!;
  return { ...intent, period: { ...period, ...whole } };
}

function candidatesOf(measure: Measure): Candidate[] {
  switch (measure.kind) {
    case 'metric':
      return measure.metrics.map((m) => ({ subject: m.table, measure: isCount(m.metric) ? { kind: 'count', metric: m.metric } : { kind: 'metric', metric: m.metric } }));
    case 'count':
      return measure.tables.map((t) => {
        const metric = (t.metrics ?? []).find(isCount);
        return { subject: t, measure: metric ? { kind: 'count', metric } : { kind: 'count' } };
      });
    case 'column':
      return refs(measure.columns).map((ref) => ({ subject: ref.table, measure: { kind: 'column', aggregate: measure.aggregate, ref } }));
    case 'rows':
      // The columns and order are worked out on the plan (rowsOf), once the tables it reads are known.
      return measure.tables.map((t) => ({ subject: t, measure: { kind: 'rows', columns: [], sort: [] } }));
    case 'extreme': {
      // A table's first or last date only when it has one date: "the latest order" of a table with two is unclear.
      const own = measure.tables.flatMap((table) => (table.columns.filter(isTemporal).length === 1 ? [{ table, column: table.columns.find(isTemporal)! }] : []));
      const dates = [...refs(measure.columns), ...own];
      return dates.map((ref) => ({ subject: ref.table, measure: { kind: 'column', aggregate: measure.aggregate, ref } }));
    }
  }
}

/** The plan on one subject, or why it cannot be built. */
function planFor(c: Candidate, intent: Intent, schema: Schema): Resolution {
  const b = new PlanBuilder(schema, c.subject, c.measure.kind === 'count' || c.measure.kind === 'rows');
  const metric = c.measure.kind === 'metric' || c.measure.kind === 'count' ? c.measure.metric : undefined;
  if (c.measure.kind === 'column') b.use(c.measure.ref);
  if (metric && !b.metricColumns(metric.expression, metric.filter)) return fail(`the metric ${metric.name} reads a column of a table that is not documented or not related`);
  const date = () => dateOf(b, intent, metric);
  const dimensions = dimensionsOf(b, intent, date);
  if (typeof dimensions === 'string') return fail(dimensions);
  const filters = filtersOf(b, intent, date);
  if (typeof filters === 'string') return fail(filters);
  const share = intent.share ? shareOf(b, intent, c.measure, date) : undefined;
  if (typeof share === 'string') return fail(share);
  // "Revenue of cancelled orders": the metric decides which statuses count; a filter on them would say zero.
  const governed = metric ? b.filterColumns(metric.filter) : [];
  const clash = [...filters, ...(share?.filters ?? [])].find((f) => f.kind === 'values' && governed.some((g) => docKey(g.table) === docKey(f.ref.table) && g.column.name === f.ref.column.name));
  if (metric && clash) return fail(`the metric ${metric.name} already decides which ${clash.ref.column.name} values count (${metric.filter})`);
  const summed = c.measure.kind === 'column' && c.measure.aggregate === 'sum' && !onePerGroup(dimensions, c.measure.ref) ? c.measure.ref.column : undefined;
  const kind = summed && nonAdditive(summed);
  // "Discount by channel", "total discount": shares added up total nothing; "unit price by category" adds prices up only when a total is asked.
  if (!intent.perEach && (kind === 'share' || (kind === 'unit' && intent.measure?.kind === 'column' && intent.measure.implied))) {
    return fail(`${summed!.name} is documented as ${kind === 'share' ? 'a share' : 'a value of one unit'}, which does not add up to a total; ask for its average, minimum or maximum`);
  }
  const perUnit = intent.perUnit ? unitsOf(intent, c.measure, dimensions) : undefined;
  if (typeof perUnit === 'string') return fail(perUnit);
  const change = intent.change && changeProblem(intent, dimensions);
  if (change) return fail(change);
  let measure = c.measure;
  if (intent.measure?.kind === 'rows') {
    if (dimensions.length > 0) return fail('it asks for rows and for groups at once');
    const rows = rowsOf(b, intent, intent.measure);
    if (typeof rows === 'string') return fail(rows);
    measure = rows;
  }
  const unused = intent.named.find((tables) => !tables.some((t) => b.has(t)));
  if (unused) return fail(`it names ${unused[0]!.name}, which this question cannot be related to`);
  const loose = intent.loose.find((ms) => !refs(ms).some((r) => b.uses(r)));
  if (loose) return fail(`it names ${loose[0]!.column.name} without saying what to do with it`);
  if (b.fannedOut) {
    // Joined to their orders, customers without any are gone from the whole as well as from the part.
    if (share) return fail(`it asks for a share of ${c.subject.name} by rows of another table, and of all ${c.subject.name} or of those with such rows is not one reading`);
    const key = keyColumn(schema, c.subject);
    if (measure.kind === 'rows') {
      const distinct = distinctRows(measure, key);
      if (typeof distinct === 'string') return fail(distinct);
      measure = distinct;
    } else {
      const keyDoc = c.subject.columns.find((col) => col.name === key) ?? (key ? { name: key } : undefined);
      if (measure.kind !== 'count' || !keyDoc) return fail('it would count rows more than once');
      measure = { ...measure, distinct: { table: c.subject, column: keyDoc } };
    }
  }
  const perEach = intent.perEach ? perEachOf(b, schema, intent, measure) : undefined;
  if (typeof perEach === 'string') return fail(perEach);
  const grouped = dimensions.length > 0;
  const order = !grouped ? undefined : (intent.ranking?.dir ?? (dimensions.some((d) => d.kind === 'bucket') ? 'time' : 'desc'));
  const limit = grouped ? intent.ranking?.limit : intent.measure?.kind === 'rows' ? intent.measure.limit : undefined;
  // Rows dated after today in a running period are not in the days divided by, so not in the total either.
  const counted = perUnit ? filters.map((f) => (f.kind === 'period' ? { ...f, period: countedPeriod(f.period, perUnit) } : f)) : filters;
  return { ok: true, plan: { subject: c.subject, measure, dimensions, filters: counted, order, limit, ...(grouped && intent.ranking?.offset ? { offset: intent.ranking.offset } : {}), ...(grouped && intent.ranking?.within ? { within: true as const } : {}), joins: b.joins, tables: b.tables, ...(intent.change ? { change: true as const } : {}), ...(intent.change?.steps ? { steps: intent.change.steps } : intent.change && intent.ranking ? { steps: rankedChange(intent, dimensions)! } : {}), ...(share ? { share } : {}), ...(intent.having ? { having: intent.having } : {}), ...(perUnit ? { perUnit } : {}), ...(perEach ? { perEach } : {}), ...(intent.display ? { display: intent.display } : {}), ...(intent.chart ? { chart: intent.chart } : {}) } };
}

/** Why the change between two periods cannot be stated: a period still running, other groups, other units. */
function changeProblem(intent: Intent, dimensions: Dimension[]): string | undefined {
  if (!intent.period && !intent.change!.steps) return `it asks for the ${intent.change!.word} without the periods to compare (for example "revenue growth in 2025" or "revenue growth by month")`;
  if (intent.change!.running) return `it asks for the ${intent.change!.word} to a period still running, which would compare part of it with the whole of the other`;
  // One group besides the periods is a change for each ("revenue growth by channel"); more, or a ranking by it, is not read.
  const [group, bucket, ...more] = dimensions.length === 1 ? [undefined, ...dimensions] : dimensions;
  const period = (d: Dimension | undefined) => d?.kind === 'bucket' && isPeriod(d.bucket);
  if (!period(bucket) || period(group) || more.length > 0) return `it asks for the ${intent.change!.word} of more than the two periods compared`;
  if (!intent.change!.steps && bucket?.kind === 'bucket' && bucket.bucket !== intent.period?.compare) return `it asks for the ${intent.change!.word} of each ${bucket.bucket}, which is answered from one month, quarter or year to the next within one named period ("revenue growth by month in 2025")`;
  // "Which channel had the highest revenue growth in 2025": each group's later period ranked by its change
  // from the earlier one (rankedChange), for two neighbouring periods and one group.
  if (intent.ranking && !rankedChange(intent, dimensions)) return `it ranks by the ${intent.change!.word} of something other than one group's two neighbouring periods`;
  if (intent.perUnit || intent.share || intent.display) return `it asks for the ${intent.change!.word} and for other units at once`;
  return undefined;
}

/** The part's filters of "what percentage of orders were cancelled" (share-of.ts), or why it has none. */
function shareOf(b: PlanBuilder, intent: Intent, measure: PlanMeasure, date: () => ColumnRef | undefined): { filters: Filter[] } | string {
  if (intent.perUnit || intent.display) return 'it asks for a share and for other units at once';
  if (!addsUp(measure)) return `it asks for a share of something that does not add up (a count, an amount, or a metric that adds up has shares)`;
  const { related: _, ...whole } = intent;
  const filters = filtersOf(b, { ...whole, values: intent.share!.part, compares: [], period: undefined }, date);
  if (typeof filters === 'string') return filters;
  return filters.length > 0 ? { filters } : `it asks for a ${intent.share!.word.replace(/ of$/, '')} but no value after it says of which part`;
}

/**
 * What "average daily ..." divides the measure by: a total (a count, a sum of an amount, an additive
 * metric), over the days of a period, with no breakdown by time (each month has its own days).
 */
function unitsOf(intent: Intent, measure: PlanMeasure, dimensions: Dimension[]): UnitCount | string {
  const per = intent.perUnit!;
  if (dimensions.some((d) => d.kind === 'bucket') || intent.period?.compare) return `it asks for an average per ${per.bucket} and for a breakdown by period at once`;
  if (!addsUp(measure)) return `it asks for an average per ${per.bucket} of something that is not a total to divide (a count, an amount, or a metric that adds up)`;
  return countUnits(per, intent.period);
}

// Columns a list leaves out unless the question names them ("Personal data; do not show it unless asked").
const PERSONAL = /\bpersonal data\b|\bdo not show\b|\bpii\b/i;

/**
 * The rows' columns and order: the subject's documented columns but personal ones, then any other
 * column the question names; newest first by the subject's one date when it has one (as asked, or
 * by default), else by its key. The key breaks ties, so that "the 5 latest" are the same 5 each time.
 */
function rowsOf(b: PlanBuilder, intent: Intent, { newest, largest }: Extract<Measure, { kind: 'rows' }>): Extract<PlanMeasure, { kind: 'rows' }> | string {
  const subject = b.subject;
  const shown = subject.columns.filter((column) => !PERSONAL.test(column.description ?? '')).map((column) => b.use({ table: subject, column })!);
  for (const ms of intent.loose) {
    const ref = b.pick(refs(ms));
    if (ref && !shown.some((s) => docKey(s.table) === docKey(ref.table) && s.column.name === ref.column.name)) shown.push(ref);
  }
  const dates = subject.columns.filter(isTemporal);
  if (newest && dates.length !== 1) return `it asks for the ${newest === 'desc' ? 'latest' : 'earliest'} ${subject.name}, but ${subject.name} has ${dates.length === 0 ? 'no date' : 'more than one date'} to order them by`;
  const key = keyColumn(b.schema, subject);
  const keyDoc = subject.columns.find((col) => col.name === key);
  const dir = newest ?? (dates.length === 1 ? 'desc' : 'asc');
  // "the largest orders": by their one measure column (listing.ts reads it only of such a table).
  const measure = largest ? subject.columns.find(isMeasure) : undefined;
  const sort = [
    ...(measure ? [{ ref: { table: subject, column: measure }, dir: largest! }] : []),
    ...(dates.length === 1 ? [{ ref: { table: subject, column: dates[0]! }, dir }] : []),
    ...(keyDoc ? [{ ref: { table: subject, column: keyDoc }, dir }] : []),
  ];
  return { kind: 'rows', columns: shown, sort };
}

/**
 * The subject's rows once each, where a filter joined them to rows that repeat them: only when every
 * column shown is the subject's, its key among them (two customers of one name stay two), and the
 * order is by columns shown (DISTINCT sorts by what it returns).
 */
function distinctRows(m: Extract<PlanMeasure, { kind: 'rows' }>, key: string | undefined): Extract<PlanMeasure, { kind: 'rows' }> | string {
  const subject = m.columns[0]?.table;
  const shown = (ref: ColumnRef) => m.columns.some((c) => docKey(c.table) === docKey(ref.table) && c.column.name === ref.column.name);
  if (!subject || m.columns.some((c) => docKey(c.table) !== docKey(subject)) || !m.columns.some((c) => c.column.name === key) || !m.sort.every((s) => shown(s.ref))) {
    return 'it lists rows that a join would repeat, with columns of other tables or without their key';
  }
  return { ...m, distinct: true };
}

/** The date periods and time buckets apply to: the one named, the metric's, or the subject's own. */
function dateOf(b: PlanBuilder, intent: Intent, metric: MetricDoc | undefined): ColumnRef | undefined {
  if (intent.periodColumns.length > 0) return b.pick(refs(intent.periodColumns));
  if (metric?.time_column) {
    const [table, column] = metric.time_column.includes('.') ? metric.time_column.split('.') : [undefined, metric.time_column];
    return b.column({ ...(table ? { table } : {}), column: column! });
  }
  return b.ownDate(intent.named.flat());
}

function dimensionsOf(b: PlanBuilder, intent: Intent, date: () => ColumnRef | undefined): Dimension[] | string {
  const out: Dimension[] = [];
  for (const g of intent.groups) {
    if (g.kind === 'bucket') {
      const ref = date();
      if (!ref) return `it asks for a ${g.bucket} breakdown but no single date applies`;
      out.push({ kind: 'bucket', bucket: g.bucket, ref });
    } else if (g.kind === 'column') {
      const ref = b.pick(refs(g.columns));
      if (!ref) return `it groups by ${g.columns[0]!.column.name}, which cannot be reached without counting rows twice`;
      out.push({ kind: 'column', ref });
    } else {
      const label = labelOf(b, g.tables);
      const [name, from] = [g.tables[0]!.name, b.subject.name];
      if (!label) return g.tables.some((t) => b.join(t)) ? `it lists ${name}, which has no name column to show` : `it groups by ${name}, which cannot be reached from ${from} without counting rows twice`;
      out.push(label);
    }
  }
  return out;
}

function labelOf(b: PlanBuilder, tables: TableDocument[]): Dimension | undefined {
  const table = tables.find((t) => b.join(t));
  const column = table && (table.columns.find((c) => c.name === 'name') ?? table.columns.find(isDimension));
  if (!table || !column) return undefined;
  const key = keyColumn(b.schema, table);
  const keyDoc = key !== undefined && key !== column.name ? table.columns.find((c) => c.name === key) : undefined;
  const label = b.use({ table, column })!;
  return { kind: 'label', ...(keyDoc ? { key: b.use({ table, column: keyDoc })! } : {}), label };
}

function filtersOf(b: PlanBuilder, intent: Intent, date: () => ColumnRef | undefined): Filter[] | string {
  const out: Filter[] = [];
  for (const mentions of intent.values) {
    const ref = b.pick(refs(mentions));
    if (!ref) return `it filters on ${mentions[0]!.value}, which cannot be related to the measure`;
    const own = mentions.filter((m) => m.column === ref.column);
    const negated = own.filter((m) => m.negated).length;
    if (negated > 0 && negated < own.length) return `it both keeps and leaves out values of ${ref.column.name}`;
    out.push({ kind: 'values', ref, values: [...new Set(own.map((m) => m.value))], ...(negated > 0 ? { not: true as const } : {}) });
  }
  for (const c of intent.compares) {
    // "customers with more than 5 orders over $2,000": a comparison of the rows counted is in the count (related-count.ts).
    if (countedCompare(intent, c)) continue;
    const ref = b.pick(refs(c.columns as ColumnMention[]));
    if (!ref) return `it compares ${c.columns[0]!.column.name}, which cannot be related to the measure`;
    const money = c.currency && comparedCurrencyProblem(ref.column.name.replace(/_/g, ' '), columnCurrency(ref.table, ref.column.name), c.currency);
    if (money) return money;
    out.push({ kind: 'compare', ref, op: c.op, value: c.value });
  }
  const related = intent.related ? relatedFilter(b, intent) : undefined;
  if (typeof related === 'string') return related;
  if (related) out.push(related.filter);
  if (intent.period && !related?.periodTaken) {
    const ref = date();
    if (!ref) return `it names a period but no single date of the data applies to it`;
    out.push({ kind: 'period', ref, period: intent.period });
  }
  if (intent.weekDays) {
    const ref = related ? undefined : date();
    if (!ref) return `it keeps days of the week, but no single date of the data applies to them`;
    out.push({ kind: 'days', ref, days: intent.weekDays });
  }
  return out;
}
