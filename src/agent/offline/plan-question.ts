// Reads a question into a query plan: an aggregate of a measure (or a count of a table), dimensions
// to group by (columns or time buckets), value and period filters, ordering and a limit. Returns
// undefined when the question is outside the family the offline model answers.
import type { TableColumnDoc, TableDocument } from '../ports.ts';
import { findPeriod, type Period } from './periods.ts';
import { findMentions, isDimension, isMeasure, isTemporal, joinPath, tableKey, type Mention, type Schema } from './vocabulary.ts';

export type Aggregate = 'count' | 'sum' | 'avg' | 'min' | 'max';
export type Bucket = 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface ColumnRef {
  table: TableDocument;
  column: TableColumnDoc;
}

export interface Plan {
  subject: TableDocument;
  aggregate: Aggregate;
  measure?: ColumnRef;
  dimensions: ({ kind: 'column'; ref: ColumnRef } | { kind: 'bucket'; bucket: Bucket; ref: ColumnRef })[];
  filters: ({ kind: 'values'; ref: ColumnRef; values: string[] } | { kind: 'compare'; ref: ColumnRef; op: '>' | '<'; value: number } | { kind: 'period'; ref: ColumnRef; period: Period })[];
  order: 'desc' | 'asc' | 'time' | undefined;
  limit: number | undefined;
}

const AGG_WORDS: [RegExp, Aggregate][] = [
  [/\b(how many|number of|count of|count)\b/, 'count'],
  [/\b(average|avg|mean)\b/, 'avg'],
  [/\b(maximum|max|highest|largest|biggest|most expensive)\b/, 'max'],
  [/\b(minimum|min|lowest|smallest|cheapest)\b/, 'min'],
  [/\b(total|sum|sum of|overall)\b/, 'sum'],
];
const BUCKETS: [RegExp, Bucket][] = [
  [/\b(?:by|per|each) day\b|\bdaily\b/, 'day'],
  [/\b(?:by|per|each) week\b|\bweekly\b/, 'week'],
  [/\b(?:by|per|each) month\b|\bmonthly\b|\bmonth by month\b/, 'month'],
  [/\b(?:by|per|each) quarter\b|\bquarterly\b/, 'quarter'],
  [/\b(?:by|per|each) year\b|\byearly\b|\bannual(?:ly)?\b|\byear by year\b/, 'year'],
];

/** Lower case, punctuation out, single spaces. */
export const normalize = (q: string) => q.toLowerCase().replace(/[?!;:,"()]/g, ' ').replace(/\.(?!\d)/g, ' ').replace(/\s+/g, ' ').trim();

/** The plan for a question, or undefined when the offline model cannot answer it. */
export function planQuestion(question: string, schema: Schema, nowMs: number): Plan | undefined {
  const text = normalize(question);
  if (schema.tables.length === 0) return undefined;
  const period = findPeriod(text, nowMs);
  const mentions = findMentions(text, schema).filter((m) => !period || m.end <= period.span[0] || m.start >= period.span[1]);
  // Keyword search runs on the text with mentioned names blanked out ("total amount" is a column, not SUM).
  let blank = text;
  for (const m of mentions) blank = blank.slice(0, m.start) + ' '.repeat(m.end - m.start) + blank.slice(m.end);
  const top = /\b(top|bottom|first) (\d+)\b/.exec(blank);
  // "which country ...": a ranking question about a dimension named right after which/what.
  const which =
    mentions.some((m) => m.kind === 'column' && isDimension(m.column) && /\b(which|what)( the)?\s+$/.test(text.slice(0, m.start))) &&
    /\b(most|highest|largest|biggest|least|fewest|lowest|smallest|best|worst)\b/.test(blank);
  const bucket = BUCKETS.find(([re]) => re.test(blank))?.[1];
  // In rankings ("which country has the highest revenue", "top 3 ..."), ranking words order the groups
  // instead of choosing the aggregate.
  const aggText = which || top ? blank.replace(/\b(most|highest|largest|biggest|least|fewest|lowest|smallest|best|worst)\b/g, ' ') : blank;
  let aggregate = AGG_WORDS.find(([re]) => re.test(aggText))?.[1];
  const explicit = aggregate !== undefined;

  const columns = mentions.filter((m): m is Extract<Mention, { kind: 'column' }> => m.kind === 'column');
  const tables = mentions.filter((m): m is Extract<Mention, { kind: 'table' }> => m.kind === 'table');
  const values = mentions.filter((m): m is Extract<Mention, { kind: 'value' }> => m.kind === 'value');
  const measures = columns.filter((m) => isMeasure(m.column));
  // A table named right after "top N" is what the ranking lists (by its name column).
  const labelTable = top ? tables.find((m) => m.start === top.index + top[0].length + 1) : undefined;
  const ranked = columns.filter((m) => isDimension(m.column) && top && m.start === top.index + top[0].length + 1);

  const countTarget = tables.find((m) => m !== labelTable && /\b(how many|number of|count of|count)\s+$/.test(text.slice(0, m.start)))
    ?? tables.find((m) => m !== labelTable);
  let subject: TableDocument | undefined;
  let measure: ColumnRef | undefined;
  if (aggregate === 'count' || (!aggregate && measures.length === 0)) {
    aggregate = 'count';
    subject = countTarget?.table ?? labelTable?.table ?? columns[0]?.table ?? values[0]?.table;
  } else {
    const m = pick(measures, countTarget?.table);
    if (!m) return undefined;
    measure = { table: m.table, column: m.column };
    subject = m.table;
    aggregate ??= 'sum';
  }
  if (!subject) return undefined;

  const dimensions: Plan['dimensions'] = [];
  const dateColumn = (): ColumnRef | undefined => {
    const named = columns.find((m) => isTemporal(m.column));
    if (named) return { table: named.table, column: named.column };
    const own = subject!.columns.find(isTemporal);
    return own ? { table: subject!, column: own } : undefined;
  };
  for (const m of columns.filter((c) => isDimension(c.column))) {
    const before = blank.slice(0, m.start);
    const grouped = /\b(by|per|for each|each|across|of each|for every)\s+$/.test(before) || ranked.includes(m) || (which && /\b(which|what)( the)?\s+$/.test(before));
    if (grouped && !dimensions.some((d) => d.ref.column === m.column)) dimensions.push({ kind: 'column', ref: { table: m.table, column: m.column } });
  }
  if (labelTable) {
    const label = labelTable.table.columns.find((c) => c.name === 'name') ?? labelTable.table.columns.find(isDimension);
    if (label) dimensions.push({ kind: 'column', ref: { table: labelTable.table, column: label } });
  }
  if (bucket) {
    const ref = dateColumn();
    if (!ref) return undefined;
    dimensions.push({ kind: 'bucket', bucket, ref });
  }

  const filters: Plan['filters'] = [];
  const byColumn = new Map<TableColumnDoc, { ref: ColumnRef; values: string[] }>();
  for (const v of values) {
    const entry = byColumn.get(v.column) ?? { ref: { table: v.table, column: v.column }, values: [] };
    if (!entry.values.includes(v.value)) entry.values.push(v.value);
    byColumn.set(v.column, entry);
  }
  for (const f of byColumn.values()) filters.push({ kind: 'values', ...f });
  for (const m of measures) {
    const after = /^\s*(?:is |was |of )?(over|above|greater than|more than|at least|under|below|less than|at most)\s+(\d+(?:\.\d+)?)/.exec(text.slice(m.end));
    if (after) filters.push({ kind: 'compare', ref: { table: m.table, column: m.column }, op: /over|above|greater|more|least/.test(after[1]!) ? '>' : '<', value: Number(after[2]) });
  }
  if (period) {
    const ref = dateColumn();
    if (!ref) return undefined;
    filters.push({ kind: 'period', ref, period });
  }
  // A table name alone ("why did customers churn") is not a question the planner understands.
  if (!explicit && !measure && dimensions.length === 0 && !which) return undefined;

  // Every table used must be reachable from the subject.
  for (const ref of [...dimensions.map((d) => d.ref), ...filters.map((f) => f.ref)]) {
    if (!joinPath(schema, tableKey(subject), tableKey(ref.table))) return undefined;
  }
  const limit = top ? Number(top[2]) : which ? 1 : undefined;
  const ascending = (top && top[1] === 'bottom') || /\b(least|fewest|lowest|smallest|worst)\b/.test(blank);
  const order = dimensions.length === 0 ? undefined : limit !== undefined ? (ascending ? 'asc' : 'desc') : dimensions.some((d) => d.kind === 'bucket') ? 'time' : 'desc';
  return { subject, aggregate, measure, dimensions, filters, order, limit };
}

/** The mention of a measure, preferring the table the question names. */
function pick(ms: Extract<Mention, { kind: 'column' }>[], prefer: TableDocument | undefined) {
  return ms.find((m) => prefer && m.table === prefer) ?? ms[0];
}
