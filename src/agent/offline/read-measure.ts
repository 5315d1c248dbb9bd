// What a question measures: a governed metric, an aggregate of a measure column, the first or last
// date, or a count of a table; and the words that do not fit it, which make the question refused.
import type { TableDocument } from '../ports.ts';
import type { ColumnMention, Group, Measure, MetricMention } from './intent.ts';
import type { Keywords, Span } from './keywords.ts';
import { datedByName, type Listing } from './listing.ts';
import { columnOfMetric } from './read-filters.ts';
import { countsEveryRow, isMeasure, isTemporal } from './vocabulary.ts';

/** What is measured, and whether words asked for it; words that do not fit it go to `unknown`. */
export function readMeasure(text: string, spans: Span[], kw: Keywords, groups: Group[], used: Set<Span>, unknown: string[], listing?: Listing): { measure: Measure | undefined; explicit: boolean } {
  const ranked = groups.some((g) => g.kind !== 'bucket') || kw.rankedBucket !== undefined;
  // A metric's words read as its column by a comparison (read-filters.ts) are not the measure.
  const metrics = spans.filter((s) => s.kind === 'metric' && !used.has(s));
  const listed = listing && listedMeasure(spans, kw, groups, used, unknown, listing);
  if (listed) return { measure: listed, explicit: true };
  // "the median order total" where order_total is a metric and its table's column: a metric is a total
  // already, so another aggregate is of the column of the same name.
  const other = kw.aggregate && kw.aggregate.aggregate !== 'sum' && kw.aggregate.aggregate !== 'count' ? kw.aggregate.aggregate : undefined;
  const own = other && metrics.length === 1 ? columnOfMetric(text, metrics[0]!) : [];
  if (other && own.length > 0) {
    used.add(metrics[0]!);
    return { measure: { kind: 'column', aggregate: other, columns: own }, explicit: true };
  }
  // "When was the last order", where "orders" is a metric of every row (SUM(1)): the date of its table's rows.
  if (kw.extreme && metrics.length > 0 && metrics.every((s) => s.ms.every((m) => m.kind === 'metric' && countsEveryRow(m.metric)))) {
    metrics.forEach((s) => used.add(s));
    return { measure: readExtreme(spans, kw.extreme.aggregate, used, metrics[0]!.ms.map((m) => m.table)), explicit: true };
  }
  if (metrics.length > 0) {
    metrics.forEach((s) => used.add(s));
    const first = (metrics[0]!.ms[0] as MetricMention).metric.name;
    // A second metric is not read: named in the refusal as the question wrote it, not as its identifier.
    unknown.push(...metrics.filter((s) => s.ms.every((m) => m.kind === 'metric' && m.metric.name !== first)).map((s) => text.slice(s.start, s.end)));
    // A metric is already aggregated: "average revenue" or "highest revenue" would need another grain.
    if (kw.aggregate && kw.aggregate.aggregate !== 'sum' && kw.aggregate.aggregate !== 'count') unknown.push(kw.aggregate.word);
    if (kw.rank && !ranked) unknown.push(kw.rank.word);
    if (kw.extreme) unknown.push(kw.extreme.word);
    return { measure: { kind: 'metric', metrics: metrics[0]!.ms as MetricMention[] }, explicit: true };
  }
  if (kw.extreme) return { measure: readExtreme(spans, kw.extreme.aggregate, used), explicit: true };
  const measures = spans.filter((s) => s.kind === 'column' && !used.has(s) && s.ms.some((m) => m.kind === 'column' && isMeasure(m.column)));
  const rankAggregate = kw.rank && !ranked ? rankAsAggregate(kw.rank.word) : undefined;
  if (kw.rank && !ranked && !rankAggregate) unknown.push(kw.rank.word);
  const countOfMeasure = kw.aggregate?.aggregate === 'count' && measures.find((s) => s.start === kw.aggregate!.end + 1);
  // A measure named without an aggregate ("order value by channel") is added up.
  const aggregate = countOfMeasure ? 'sum' : (kw.aggregate?.aggregate ?? rankAggregate ?? (measures.length > 0 ? 'sum' : undefined));
  if (aggregate && aggregate !== 'count') {
    const target = countOfMeasure || measures[0];
    if (!target) return { measure: undefined, explicit: true };
    used.add(target);
    const columns = (target.ms as ColumnMention[]).filter((m) => isMeasure(m.column));
    const implied = !countOfMeasure && !kw.aggregate && !rankAggregate;
    return { measure: { kind: 'column', aggregate, columns, ...(implied ? { implied: true as const } : {}) }, explicit: true };
  }
  const counted = countTarget(text, spans, kw, groups);
  if (ranked && counted?.kind === 'count' && ranksRows(text, spans, kw, counted.tables)) unknown.push(kw.rank!.word);
  return { measure: counted, explicit: aggregate === 'count' };
}

// A word of quality before a table ranks its rows by a measure left unnamed ("the best product in each
// category", "the largest order by country"), not the groups by how many rows they hold, as a word of
// quantity does ("the country with the most customers").
const QUALITY = /^(highest|largest|biggest|greatest|best|lowest|smallest|worst)$/;

function ranksRows(text: string, spans: Span[], kw: Keywords, tables: TableDocument[]): boolean {
  const word = kw.rank?.word;
  return word !== undefined && QUALITY.test(word) && spans.some((s) => s.kind === 'table' && s.ms.some((m) => tables.includes(m.table)) && text.slice(0, s.start).endsWith(`${word} `));
}

/**
 * The rows, or a column's values, a listing asks for, when nothing else is counted, measured, ranked
 * or grouped: "show me the number of orders" counts them, and "revenue of the last 10 orders" is not
 * answered as all revenue (the listing's words, already read, go to `unknown`). A measure column
 * after the rows is one of theirs ("orders with their total amount").
 */
function listedMeasure(spans: Span[], kw: Keywords, groups: Group[], used: Set<Span>, unknown: string[], listing: Listing): Measure | undefined {
  const metric = spans.some((s) => s.kind === 'metric' && s !== listing.span);
  const asked = metric || kw.aggregate || kw.rank || kw.top || kw.whichN !== undefined || kw.extreme;
  const tables = listing.span.ms.map((m) => m.table);
  // A column's values ("list the categories") are grouped by it in read-question.ts; its table is counted.
  if (listing.values) return asked || spans.some((s) => s.kind === 'table') ? undefined : { kind: 'count', tables };
  const measureBefore = spans.some((s) => s.kind === 'column' && !used.has(s) && s.start < listing.span.start && s.ms.some((m) => m.kind === 'column' && isMeasure(m.column)));
  // "which customers ..." read the customers as a group too, which asks for them and nothing else.
  const ownGroups = listing.which ? groups.filter((g) => !(g.kind === 'label' && g.tables.every((t) => tables.includes(t)))) : groups;
  if (!asked && !measureBefore && !kw.ordinal && ownGroups.length === 0) {
    const { newest, largest, limit } = listing;
    return { kind: 'rows', tables, ...(newest ? { newest } : {}), ...(largest ? { largest } : {}), ...(limit !== undefined ? { limit } : {}) };
  }
  if (listing.word) unknown.push(listing.word);
  return undefined;
}

const rankAsAggregate = (word: string): 'min' | 'max' | undefined => (/^(highest|largest|biggest|greatest)$/.test(word) ? 'max' : /^(lowest|smallest)$/.test(word) ? 'min' : undefined);

function readExtreme(spans: Span[], aggregate: 'min' | 'max', used: Set<Span>, counted: TableDocument[] = []): Measure | undefined {
  const dates = spans.find((s) => s.kind === 'column' && s.ms.every((m) => m.kind === 'column' && isTemporal(m.column)));
  if (dates) used.add(dates);
  const tables = [...spans.filter((s) => s.kind === 'table').flatMap((s) => s.ms.map((m) => m.table)), ...counted];
  if (!dates && tables.length === 0) return undefined;
  return { kind: 'extreme', aggregate, columns: dates ? (dates.ms as ColumnMention[]) : [], tables: dates ? [] : tables.slice(0, 1) };
}

/** The table counted: named right after the count words or a ranking word, else the first one named. */
function countTarget(text: string, spans: Span[], kw: Keywords, groups: Group[]): Measure | undefined {
  const tables = spans.filter((s) => s.kind === 'table');
  const after = (re: RegExp) => tables.find((s) => re.test(text.slice(0, s.start)));
  const label = groups.find((g): g is Extract<Group, { kind: 'label' }> => g.kind === 'label');
  const chosen = after(/\b(how many|number of|count of|count)\s+(?:\S+\s+)?$/) ?? after(/\b(most|least|fewest)\s+$/) ?? tables.find((s) => !label || !s.ms.some((m) => label.tables.includes(m.table)));
  // Counting the very rows a ranking lists ("top 10 customers") counts one per row: no measure.
  if (chosen) return { kind: 'count', tables: chosen.ms.map((m) => m.table) };
  const other = spans.find((s) => s.kind === 'column' || s.kind === 'value');
  if (other && kw.aggregate?.aggregate === 'count') return { kind: 'count', tables: [other.ms[0]!.table] };
  const dated = datedByName(text, spans);
  return dated ? { kind: 'count', tables: [dated.ms[0]!.table] } : undefined;
}
