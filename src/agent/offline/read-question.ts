// Reads a question into an Intent (intent.ts): the knowledge it mentions first, then the words around
// those mentions ("by", "which 3", "how many", "earliest"), and last what is left over.
import { isPeriod, type Bucket, type ColumnMention, type Group, type Intent } from './intent.ts';
import type { TableDocument } from '../ports.ts';
import { readMeasure } from './read-measure.ts';
import { findPeriod, type Period } from './periods.ts';
import { findDisplay } from './units.ts';
import { findChart } from './chart-request.ts';
import { datedByName, readListing } from './listing.ts';
import { readChange } from './change.ts';
import { readPerUnit } from './per-unit.ts';
import { readPerEach } from './per-each.ts';
import { withTrend } from './trend.ts';
import { readShareOf, splitValues } from './share-of.ts';
import { readRelatedCount } from './related-count.ts';
import { readKeptGroups, withKeptGroup } from './kept-groups.ts';
import { readCompares, readValues, valuesCompared } from './read-filters.ts';
import { BUYING, findMentions, forms, isDimension, isTemporal, type Mention, type Schema } from './vocabulary.ts';
import { Marks, normalize } from './words.ts';
import { AFTER_BUCKET, type Keywords, type Span } from './keywords.ts';
import { readKeywords } from './read-keywords.ts';

const EACH = /\b(each|every|per)\b/;
const FOLLOW_UP = /^(and|what about|how about|same for|same but|now|also|then)\b/;
// "for each of the last 3 months": one row for each of those months.
const EACH_OF = /\b(?:for |in )?(?:each|every one) of $/;
const PRIORITY: Mention['kind'][] = ['metric', 'column', 'value', 'table'];
const GROUP_BEFORE = /\b(by|per|for each|each|across|of each|for every)\s+$/;
const LABEL_BEFORE = /\b(by|for each|of each|for every)\s+$/;
const WHICH_BEFORE = /\b(which|what)(?: \d+)?(?: the)?\s+$/;

/** "customers with more than 5 orders" (related-count.ts), then "countries with revenue over 1m" (kept-groups.ts) but of the span counted. */
function readCounts(text: string, spans: Span[], marks: Marks) {
  const related = readRelatedCount(text, spans, marks);
  return { related, kept: readKeptGroups(text, spans, marks, related?.counted) };
}

/** The intent of one question (not yet merged with the chat's earlier questions). */
export function readQuestion(question: string, schema: Schema, nowMs: number): Intent {
  const text = normalize(question);
  const marks = new Marks(text);
  const followUp = marks.takeMatch(FOLLOW_UP) !== null;
  const found = findPeriod(text, nowMs);
  if (found) marks.take(...found.span);
  const changed = readChange(found, marks, nowMs);
  const period = changed?.period ?? found;
  // "How much did orders increase": the size of the change, not a sum; orders are counted as they would be.
  if (changed) marks.takeMatch(/\bhow much\b/);
  const display = findDisplay(text);
  const chart = findChart(text);
  for (const span of [display?.span, chart?.span]) if (span) marks.take(...span);
  const outside = (m: Mention) => [period?.span, display?.span, chart?.span].every((s) => !s || m.end <= s[0] || m.start >= s[1]);
  const spans = spansOf(findMentions(text, schema).filter(outside));
  for (const s of spans) marks.take(s.start, s.end);
  takeUnique(text, spans, marks);
  const { related, kept } = readCounts(text, spans, marks);
  const perEach = readPerEach(text, spans, marks);
  const shareWords = readShareOf(spans, marks);
  // Before the keywords: "the 5 most recent orders" lists orders, it does not ask for a date.
  const listing = readListing(text, spans, marks);
  // Before the keywords: "average daily revenue" is neither an average of rows nor grouped by day.
  const perUnit = readPerUnit(spans, marks, nowMs);
  const kw = readKeywords(marks);
  kw.bucket = withTrend(kw.bucket ?? (period && eachOf(text, period, marks)), marks, period);
  const used = new Set<Span>(related ? [related.counted] : []);
  const groups = withKeptGroup(readGroups(text, spans, kw, used, marks), kept);
  // "list the categories": each value, with the rows of its table counted.
  if (listing?.values && groups.length === 0) {
    groups.push({ kind: 'column', columns: listing.span.ms as ColumnMention[] });
    used.add(listing.span);
  }
  // "revenue in Germany vs France": a row for each value compared, as "by country" gives.
  const compared = valuesCompared(text, spans, marks);
  if (compared && !groups.some((g) => g.kind === 'column' && g.columns.some((c) => c.column === compared.column))) groups.push({ kind: 'column', columns: [compared] });
  // Periods compared ("this year vs last year"): a row for each, unless the question buckets by time itself.
  if (period?.compare && !groups.some((g) => g.kind === 'bucket' && isPeriod(g.bucket))) groups.push({ kind: 'bucket', bucket: period.compare });
  const compares = readCompares(text, spans, marks, used);
  const unknown: string[] = [];
  const measure = readMeasure(text, spans, kw, groups, used, unknown, listing);
  const unclear = boughtAsMeasure(text, spans, measure.measure);
  if (listing?.count && measure.measure?.kind === 'rows') marks.take(...listing.count);
  // The rows "which customers ..." asks for are listed, not grouped by.
  if (listing?.which && measure.measure?.kind === 'rows') groups.splice(0, groups.length, ...groups.filter((g) => g.kind !== 'label'));
  const read = readValues(text, spans, used, marks);
  const { part, whole: values } = shareWords ? splitValues(read, shareWords) : { part: [], whole: read };
  const periodColumns = period || kw.datedBucket ? columnsOf(spans.filter((s) => !used.has(s) && s.kind === 'column' && s.ms.every((m) => m.kind === 'column' && isTemporal(m.column)))) : [];
  periodColumns.forEach((c) => used.add(spans.find((s) => s.ms.includes(c))!));
  if (period && periodColumns.length === 0) periodColumns.push(...datesBefore(text, spans, period.span[0]));
  const fresh = newRows(text, spans, measure.measure, period !== undefined || groups.some((g) => g.kind === 'bucket'), periodColumns);
  if (fresh) {
    marks.take(fresh.start, fresh.start + 'new'.length);
    if (period && periodColumns.length === 0) periodColumns.push(fresh.date);
  }
  // "top 3 only", "just the bottom 5": nothing but a ranking, for the chat's previous answer to apply (follow-up.ts).
  const ranking = rankingOf(kw, groups, text, spans) ?? (kw.top && spans.length === 0 && !measure.measure ? { dir: kw.top.dir, limit: kw.top.limit } : undefined);
  unknown.push(...unappliedRanking(kw, ranking, groups, text));
  return {
    measure: measure.measure,
    // "New customers last month" asks for a count as plainly as "how many customers".
    explicit: measure.explicit || fresh !== undefined || perUnit !== undefined || perEach !== undefined || shareWords !== undefined,
    groups,
    values,
    compares,
    period,
    ...(kw.weekDays ? { weekDays: kw.weekDays } : {}), ...(perUnit ? { perUnit } : {}), ...(perEach ? { perEach } : {}),
    ...(related ? { related: related.related } : {}), ...(kept ? { having: kept.having } : {}),
    ...(changed ? { change: changed.change } : {}),
    ...(shareWords ? { share: { word: shareWords.word, part } } : {}),
    ...(display ? { display } : {}),
    ...(chart ? { chart } : {}),
    periodColumns,
    ranking,
    // The table a related count counts is in the count's subquery, not in the plan.
    named: spans.filter((s) => s.kind === 'table' && s !== related?.counted).map((s) => s.ms.map((m) => m.table)),
    loose: spans.filter((s) => s.kind === 'column' && !used.has(s)).map((s) => s.ms as ColumnMention[]),
    unknown: [...marks.unknownWords(), ...unknown],
    ...(unclear ? { unclear } : {}),
    followUp,
  };
}

/**
 * Groups mentions by their words, keeping the most specific kind there (a metric over a column),
 * except that a table's own name is the table, not another table's column of that name: "how many
 * customers" counts customers, not the values of a `customer` column of raw orders.
 */
function spansOf(mentions: Mention[]): Span[] {
  const spans: Span[] = [];
  const otherTables = (m: Mention, s: Span) => s.ms.every((x) => x.table !== m.table);
  for (const m of mentions) {
    const s = spans.find((x) => x.start === m.start && x.end === m.end);
    if (!s) spans.push({ start: m.start, end: m.end, kind: m.kind, ms: [m] });
    else if (m.kind === 'column' && s.kind === 'table' && otherTables(m, s)) continue;
    else if (m.kind === 'table' && s.kind === 'column' && otherTables(m, s)) Object.assign(s, { kind: m.kind, ms: [m] });
    else if (PRIORITY.indexOf(m.kind) < PRIORITY.indexOf(s.kind)) Object.assign(s, { kind: m.kind, ms: [m] });
    else if (m.kind === s.kind) s.ms.push(m);
  }
  return spans;
}

/** "Which customers bought the most": buying says what was done, not what to count; why the question is unclear. */
function boughtAsMeasure(text: string, spans: Span[], measure: Intent['measure']): string | undefined {
  const buying = (s: Span) => s.kind === 'table' && BUYING.includes(text.slice(s.start, s.end));
  const bought = spans.find(buying);
  // Counted by the verb alone: "how many orders were bought" names what it counts.
  const named = (t: TableDocument) => spans.some((s) => s.kind === 'table' && !buying(s) && s.ms.some((m) => m.table === t));
  const counted = measure?.kind === 'count' ? measure.tables.filter((t) => !named(t)) : [];
  if (!bought?.ms.some((m) => counted.includes(m.table))) return undefined;
  return `"${text.slice(bought.start, bought.end)}" does not say what to count: orders, units or the amount spent (ask for example "the most orders", "the most units" or "by revenue")`;
}

const columnsOf = (spans: Span[]) => spans.flatMap((s) => s.ms as ColumnMention[]);

/**
 * "customers who ordered in 2025", "customers who bought Electronics last month": the period dates the
 * table whose verb comes before it (the only one), by its only date: what was done then. A noun does
 * not ("revenue from customers in 2025" is revenue dated by the order).
 */
function datesBefore(text: string, spans: Span[], at: number): ColumnMention[] {
  const verbs = spans.filter((x) => x.kind === 'table' && x.end < at && !forms(x.ms[0]!.table.name).includes(text.slice(x.start, x.end)));
  const s = verbs.length === 1 ? verbs[0]! : undefined;
  if (!s) return [];
  return s.ms.flatMap((m) => {
    const dates = m.table.columns.filter(isTemporal);
    return dates.length === 1 ? [{ kind: 'column' as const, table: m.table, column: dates[0]!, start: s.start, end: s.end }] : [];
  });
}

/** "unique customers": a table's rows count once each already, by their key across joins. */
function takeUnique(text: string, spans: Span[], marks: Marks): void {
  for (const s of spans) {
    const unique = s.kind === 'table' ? /\b(?:unique|distinct) $/.exec(text.slice(0, s.start)) : null;
    if (unique) marks.take(unique.index, s.start);
  }
}

/** "for each of the last 3 months": the unit of the period counted back, to group by; its words taken. */
function eachOf(text: string, period: Period, marks: Marks): Bucket | undefined {
  const m = period.rolling ? EACH_OF.exec(text.slice(0, period.span[0]).replace(/the $/, '')) : null;
  if (!m) return undefined;
  marks.take(m.index, period.span[0]);
  return period.rolling!.unit;
}

/**
 * The words of a ranking read but not applied, which would answer another question: "the second ..."
 * as the first, "top 5 revenue" as the total, and "the cheapest product in each category" or "top 3
 * products per country" (a ranking within each group) as the cheapest product of all.
 */
function unappliedRanking(kw: Keywords, ranking: Intent['ranking'], groups: Group[], text: string): string[] {
  if (kw.ordinal && ranking?.offset === undefined) return [kw.ordinal.word];
  if (!ranking && kw.top) return [kw.top.word];
  if (!ranking && kw.whichN !== undefined) return [`which ${kw.whichN}`];
  if (!ranking && kw.rankedBucket) return [kw.rankedBucket.word];
  const each = ranking?.limit !== undefined && groups.length >= 2 && !ranking.within ? EACH.exec(text) : null;
  return each ? [each[1]!] : [];
}

/**
 * "new customers last month", "new customers by month": the rows counted or listed, by the one date
 * each was created on. Only then: "new" without a period has no meaning here, and "revenue from new
 * customers" would be revenue dated by the order, not by the customer.
 */
function newRows(text: string, spans: Span[], measure: Intent['measure'], dated: boolean, periodColumns: ColumnMention[]): { start: number; date: ColumnMention } | undefined {
  // "new signups last month": the rows a date names are new by that date.
  const s = spans.find((x) => (x.kind === 'table' || x === datedByName(text, spans)) && text.slice(0, x.start).endsWith('new '));
  const table = s && (measure?.kind === 'count' || measure?.kind === 'rows') ? s.ms.find((m) => measure.tables.includes(m.table))?.table : undefined;
  const dates = s?.kind === 'column' ? s.ms.filter((m) => m.table === table).map((m) => (m as ColumnMention).column) : (table?.columns.filter(isTemporal) ?? []);
  if (!s || !table || dates.length !== 1 || !dated || periodColumns.some((c) => c.table !== table)) return undefined;
  return { start: s.start - 'new '.length, date: { kind: 'column', table, column: dates[0]!, start: s.start, end: s.end } };
}

function readGroups(text: string, spans: Span[], kw: Keywords, used: Set<Span>, marks: Marks): Group[] {
  const groups: Group[] = [];
  const afterTop = (s: Span) => kw.top !== undefined && kw.top.end + 1 === s.start;
  // "per" means "by" only before a column: "revenue per customer" is a ratio, and stays unknown.
  const grouped = (before: string, re: RegExp) => {
    const m = re.exec(before);
    if (m) marks.take(m.index, m.index + m[0].length);
    return m !== null;
  };
  let lastGroupEnd = -1;
  for (const s of spans) {
    const before = text.slice(0, s.start);
    // "by channel and status": a second column after a grouped one.
    const andAfterGroup = (lastGroupEnd >= 0 && text.slice(lastGroupEnd, s.start) === ' and ') || (kw.bucket !== undefined && AFTER_BUCKET.test(before));
    if (s.kind === 'column') {
      const columns = (s.ms as ColumnMention[]).filter((m) => isDimension(m.column));
      if (columns.length > 0 && (grouped(before, GROUP_BEFORE) || WHICH_BEFORE.test(before) || afterTop(s) || andAfterGroup)) {
        groups.push({ kind: 'column', columns });
        used.add(s);
        lastGroupEnd = s.end;
      }
    } else if (s.kind === 'table' && (grouped(before, LABEL_BEFORE) || WHICH_BEFORE.test(before) || afterTop(s))) {
      groups.push({ kind: 'label', tables: s.ms.map((m) => m.table) });
    }
  }
  if (kw.bucket) groups.push({ kind: 'bucket', bucket: kw.bucket });
  return groups;
}

function rankingOf(kw: Keywords, groups: Group[], text: string, spans: Span[]): Intent['ranking'] {
  const dir = kw.rankedBucket && (kw.rankedBucket.dir ?? kw.rank?.dir);
  if (kw.rankedBucket) return dir ? { dir, ...(kw.rankedBucket.limit !== undefined ? { limit: kw.rankedBucket.limit } : {}) } : undefined;
  if (groups.length === 0 || groups.every((g) => g.kind === 'bucket')) return undefined;
  // "Which country has the most ...": the first one; "which countries ...": all of them, ranked; the
  // earliest or latest date of each ranks them as well ("which location opened first").
  const which = spans.find((s) => WHICH_BEFORE.test(text.slice(0, s.start)));
  const plural = which !== undefined && /s$/.test(text.slice(which.start, which.end)) && !which.ms.some((m) => m.kind === 'column' && /s$/.test(m.column.name));
  // "the second most": one row, after the first; only where a ranking of groups asks for one row.
  if (kw.ordinal) return kw.rank && !kw.top && kw.whichN === undefined && !plural ? { dir: kw.rank.dir, limit: 1, offset: kw.ordinal.place - 1 } : undefined;
  // "the top customer by revenue" is one, as "the top customers" are a handful.
  const one = kw.top?.handful && spans.some((s) => s.start === kw.top!.end + 1 && s.kind !== 'metric' && !/s$/.test(text.slice(s.start, s.end)));
  const limit = (one ? 1 : kw.top?.limit) ?? kw.whichN ?? (which && (kw.rank || kw.extreme) && !plural ? 1 : undefined);
  if (limit === undefined && !kw.rank && !kw.extreme) return undefined;
  return { dir: kw.top?.dir ?? kw.rank?.dir ?? (kw.extreme?.aggregate === 'min' ? 'asc' : 'desc'), ...(limit !== undefined ? { limit } : {}), ...(kw.top && groups.length >= 2 && EACH.test(text.slice(kw.top.end)) ? { within: true as const } : {}) };
}
