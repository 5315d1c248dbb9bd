// The words of an answer's title: what is measured, by what, under which conditions ("Top 3: Revenue by
// country in 2025", "Number of customers with more than 5 orders"), and the one row a ranking asks for.
import type { PeriodBucket } from './periods.ts';
import { docKey } from './joins.ts';
import { ORDINALS } from './keywords.ts';
import { metricOf, onePerGroup, ranksByChange, type ColumnRef, type Plan } from './plan.ts';
import { countsEveryRow, qualifiedColumn, singular } from './vocabulary.ts';

const spaced = (s: string) => s.replace(/_/g, ' ');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The adjective of an average per unit: "Average daily revenue". */
export const PER_WORDS: Record<PeriodBucket, string> = { day: 'daily', week: 'weekly', month: 'monthly', quarter: 'quarterly', year: 'yearly' };

const AGGREGATE_WORDS = { sum: 'Total', avg: 'Average', median: 'Median', min: 'Minimum', max: 'Maximum' };

/** "Revenue by country in 2025", "Top 3: Number of orders by channel where status is completed". */
export function titleOf(plan: Plan): string {
  const { what, dims: all, conditions } = titleParts(plan);
  // Groups ranked by their change ("which channel grew the most in 2025") are named by their group alone.
  const rankedSteps = ranksByChange(plan);
  const dims = rankedSteps ? all.filter((d) => d !== plan.steps!.bucket) : all;
  const parts = [what, ...(dims.length > 0 ? [`by ${dims.join(' and ')}`] : []), ...conditions];
  if (plan.measure.kind === 'rows') return rowsTitle(plan, plan.measure, parts.join(' '));
  if (plan.offset) parts.unshift(`${capital(ORDINALS[plan.offset]!)} ${plan.order === 'asc' ? 'from the bottom' : 'from the top'}:`);
  else if (plan.limit !== undefined && plan.dimensions.length > 0) parts.unshift(`${plan.order === 'asc' ? 'Bottom' : 'Top'} ${plan.limit}${plan.within ? ` in each ${dims.slice(1).join(' and ')}` : ''}:`);
  // "Number of customers by country, only those with more than 100".
  const kept = plan.having && dims.length > 0 ? `, only those with ${RELATED_OPS[plan.having.op]} ${plan.having.value.toLocaleString('en-US')}` : '';
  const steps = !plan.steps ? '' : rankedSteps ? `, ranked by the change from the ${plan.steps.bucket} before` : `, with each ${plan.steps.bucket}'s change from the one before`;
  return `${parts.join(' ')}${kept}${steps}`;
}

/** "Latest 5: Orders where country is France", "Customers where country is Germany, newest first". */
function rowsTitle(plan: Plan, m: Extract<Plan['measure'], { kind: 'rows' }>, title: string): string {
  const first = m.sort[0];
  const by = !first ? 'key' : /DATE|TIME/i.test(first.ref.column.type ?? '') ? 'date' : /(^|_)id$/i.test(first.ref.column.name) ? 'key' : 'measure';
  const [most, least] = by === 'date' ? ['newest', 'oldest'] : ['largest', 'smallest'];
  if (plan.limit === undefined) return by === 'key' ? title : `${title}, ${first!.dir === 'desc' ? most : least} first`;
  const word = by === 'key' ? 'First' : by === 'date' ? (first!.dir === 'desc' ? 'Latest' : 'Earliest') : first!.dir === 'desc' ? 'Largest' : 'Smallest';
  // One row is named as one: "Largest order last month".
  const subject = capital(spaced(plan.subject.name));
  if (plan.limit === 1 && title.startsWith(subject)) return `${word} ${singular(spaced(plan.subject.name))}${title.slice(subject.length)}`;
  return `${word} ${plan.limit}: ${title}`;
}

/** "Segment with the most customers", "Category with the lowest revenue in 2025": the one row a ranking asks for. */
export function leaderOf(plan: Plan): string {
  const { what, dims, conditions } = titleParts(plan);
  const asc = plan.order === 'asc';
  // A metric that counts every row is a number of rows too: "Day of the week with the most orders".
  const counted = plan.measure.kind === 'count' || (plan.measure.kind === 'metric' && countsEveryRow(plan.measure.metric));
  const most = counted ? `${asc ? 'fewest' : 'most'} ${spaced(plan.subject.name)}` : `${asc ? 'lowest' : 'highest'} ${what.charAt(0).toLowerCase()}${what.slice(1)}`;
  const place = plan.offset ? `${ORDINALS[plan.offset]} ` : '';
  return [`${capital(dims[0]!)} with the ${place}${most}`, ...conditions].join(' ');
}

/** Whether a date is the measure's own: its metric's time column, or else the subject's one date. */
function ownDate(plan: Plan, ref: ColumnRef): boolean {
  const time = metricOf(plan)?.time_column;
  if (time) {
    const [table, column] = time.includes('.') ? time.split('.') : [plan.subject.name, time];
    return ref.table.name.toLowerCase() === table!.toLowerCase() && ref.column.name.toLowerCase() === column!.toLowerCase();
  }
  return docKey(ref.table) === docKey(plan.subject) && plan.subject.columns.filter((c) => /DATE|TIME/i.test(c.type ?? '')).length === 1;
}

function titleParts(plan: Plan): { what: string; dims: string[]; conditions: string[] } {
  const m = plan.measure;
  const temporal = m.kind === 'column' && /DATE|TIME/i.test(m.ref.column.type ?? '');
  const total =
    m.kind === 'metric' ? capital(spaced(m.metric.name))
    : m.kind === 'count' ? `Number of ${spaced(plan.subject.name)}`
    : m.kind === 'rows' ? capital(spaced(plan.subject.name))
    : temporal ? `${m.aggregate === 'min' ? 'Earliest' : 'Latest'} ${spaced(m.ref.column.name)}`
    : m.aggregate === 'sum' && onePerGroup(plan.dimensions, m.ref) ? capital(spaced(m.ref.column.name))
    : `${AGGREGATE_WORDS[m.aggregate]} ${spaced(m.ref.column.name).replace(/^total /, '')}`;
  const per = plan.perUnit ? `Average ${PER_WORDS[plan.perUnit.bucket]} ${total.charAt(0).toLowerCase()}${total.slice(1)}` : plan.perEach ? `${total} per ${plan.perEach.noun}` : total;
  // A time bucket of another date than the measure's own says which, as a period does ("Revenue by year
  // of signup date"), unless a period of that date says it already ("... by month with order date in 2025").
  const said = (ref: ColumnRef) => ownDate(plan, ref) || plan.filters.some((f) => f.kind === 'period' && f.ref.column === ref.column);
  const unit = (d: Extract<Plan['dimensions'][number], { kind: 'bucket' }>) => `${d.bucket === 'weekday' ? 'day of the week' : d.bucket}${said(d.ref) ? '' : ` of ${spaced(d.ref.column.name)}`}`;
  const dims = plan.dimensions.map((d) => (d.kind === 'bucket' ? unit(d) : d.kind === 'column' ? spaced(d.ref.column.name) : singular(spaced(d.label.table.name))));
  const conditions = oneWhere(conditionsOf(plan, plan.filters));
  if (!plan.share) return { what: per, dims, conditions };
  // "Share of orders where status is cancelled among those where channel is web in 2025".
  const noun = m.kind === 'metric' ? spaced(m.metric.name) : m.kind === 'column' ? spaced(m.ref.column.name) : spaced(plan.subject.name);
  const among = conditions.map((c) => c.replace(/^where /, 'among those where '));
  return { what: [`Share of ${noun}`, ...oneWhere(conditionsOf(plan, plan.share.filters))].join(' '), dims, conditions: among };
}

/** "where channel is web and total amount is over 1000": one "where", the other conditions joined to it. */
function oneWhere(conditions: string[]): string[] {
  let wheres = 0;
  return conditions.map((c) => (c.startsWith('where ') && wheres++ > 0 ? `and ${c.slice('where '.length)}` : c));
}

const RELATED_OPS = { '>': 'more than', '>=': 'at least', '<': 'fewer than', '<=': 'at most', '=': 'exactly' };

/** "with more than 5 orders in 2025", "with no orders"; of a table joined to the subject, whose: "of customers with ...". */
function relatedWords(plan: Plan, f: Extract<Plan['filters'][number], { kind: 'related' }>): string {
  const count = f.op === '=' && f.value === 0 ? `no ${spaced(f.counted.name)}` : `${RELATED_OPS[f.op]} ${f.value} ${spaced(f.value === 1 ? singular(f.counted.name) : f.counted.name)}`;
  const whose = docKey(f.ref.table) === docKey(plan.subject) ? '' : `of ${spaced(f.ref.table.name)} `;
  // "with more than 5 orders of total amount over 2000": the rows counted, as compared.
  const compared = (f.compares ?? []).map((c) => ` of ${spaced(c.column)} ${COMPARE_WORDS[c.op]} ${c.value}`).join(' and');
  return `${whose}with ${count}${compared}${f.period ? ` ${f.period.period.label}` : ''}`;
}

const COMPARE_WORDS = { '>': 'over', '<': 'under', '>=': 'at least', '<=': 'at most' } as const;

/** A filter's column in words; of another table than the subject, a bare name says whose ("Products where customer name is ..."). */
const columnWords = (plan: Plan, ref: ColumnRef) => (docKey(ref.table) !== docKey(plan.subject) ? qualifiedColumn(ref.table.name, ref.column.name) : spaced(ref.column.name));

/** Each filter in words: "where status is cancelled", "in 2025", "where total amount is over 1000". */
function conditionsOf(plan: Plan, filters: Plan['filters']): string[] {
  return filters.flatMap((f, i) => {
    if (f.kind === 'related') return [relatedWords(plan, f)];
    if (f.kind === 'values') return [`where ${columnWords(plan, f.ref)} is ${!f.not ? f.values.join(' or ') : f.values.length === 1 ? `not ${f.values[0]}` : `none of ${f.values.join(', ')}`}`];
    // A period of another date than the measure's own says which: "Revenue with signup date in 2025".
    if (f.kind === 'period' || f.kind === 'days') {
      const label = f.kind === 'period' ? f.period.label : f.days.label;
      return [ownDate(plan, f.ref) ? label : `with ${spaced(f.ref.column.name)} ${label}`];
    }
    // "between 1000 and 2000" reads as two bounds of one column, said once.
    const prev = filters[i - 1];
    const next = filters[i + 1];
    if (f.op === '<=' && prev?.kind === 'compare' && prev.op === '>=' && prev.ref.column === f.ref.column) return [];
    if (f.op === '>=' && next?.kind === 'compare' && next.op === '<=' && next.ref.column === f.ref.column) return [`where ${spaced(f.ref.column.name)} is between ${f.value} and ${next.value}`];
    return [`where ${spaced(f.ref.column.name)} is ${COMPARE_WORDS[f.op]} ${f.value}`];
  });
}
