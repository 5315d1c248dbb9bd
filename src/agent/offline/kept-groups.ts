// "Countries with more than 100 customers", "which channels have more than 5,000 orders", "categories
// with revenue over 1m", "customers with revenue over 10,000": the groups of a column, or the rows of a
// table, kept by their own measure (SQL's HAVING), read after the column or table named in the plural.
// Rows kept one by one are read elsewhere: "orders over $1,000" compares each row (read-filters.ts),
// "customers with more than 5 orders" counts each row's own (related-count.ts).
import type { ColumnMention, Group, Having } from './intent.ts';
import type { Span } from './keywords.ts';
import { compareAfter } from './read-filters.ts';
import { countBefore } from './related-count.ts';
import { isDimension, isMeasure } from './vocabulary.ts';
import type { Marks } from './words.ts';

// "categories with revenue over 1m", "channels having units of at least 500", "countries whose revenue is
// over ...", "which customers have revenue above 80,000", "customers who spent more than 10,000" (a
// metric's verb, "spent", right after them).
const MEASURE_AFTER = /^ (?:(?:with|having|(?:that |which |who )?(?:have|had)|whose|who|that|which)(?: an?| a total| total)? )?$/;

/** The group a bound keeps and the bound, with their words taken; `counted` is the span a related count counts already. */
export function readKeptGroups(text: string, spans: Span[], marks: Marks, counted?: Span): { group: Group; having: Having } | undefined {
  for (const [i, s] of spans.entries()) {
    const group = groupOf(text, s);
    const next = spans[i + 1];
    if (!group || !next || next === counted) continue;
    // A table's rows are kept by a governed metric of the rows related to them only: by a count of
    // another table's rows they are related-count.ts's ("customers with more than 5 orders"), and by a
    // column's value each related row is compared (read-filters.ts: "customers with total amount over
    // 1000" have an order over 1000).
    if (group.kind === 'label' && (next.kind !== 'metric' || next.ms.some((m) => group.tables.includes(m.table)))) continue;
    const between = text.slice(s.end, next.start);
    const count = next.kind === 'table' || next.kind === 'metric' ? countBefore(between) : undefined;
    if (count && count.index === 1) {
      marks.take(s.end, next.start);
      return { group, having: { op: count.op, value: count.value } };
    }
    const measured = next.kind === 'metric' || (next.kind === 'column' && next.ms.some((m) => m.kind === 'column' && isMeasure(m.column)));
    const bound = measured && MEASURE_AFTER.test(between) ? compareAfter(text.slice(next.end)) : undefined;
    if (bound) {
      marks.take(s.end, next.start);
      marks.take(next.end, next.end + bound.length);
      return { group, having: { op: bound.op, value: bound.value, ...(bound.currency ? { currency: bound.currency } : {}) } };
    }
  }
  return undefined;
}

/**
 * The groups a span names in the plural: a column's values ("countries" for `country`), or a table's
 * rows, each one labelled as "revenue by customer" labels them ("customers with revenue over 10,000").
 */
function groupOf(text: string, s: Span): Group | undefined {
  if (s.kind === 'table') return /s$/.test(text.slice(s.start, s.end)) ? { kind: 'label', tables: s.ms.map((m) => m.table) } : undefined;
  const columns = plural(text, s);
  return columns.length > 0 ? { kind: 'column', columns } : undefined;
}

/** The columns a span names in the plural ("countries" for `country`), to group by. */
function plural(text: string, s: Span): ColumnMention[] {
  if (s.kind !== 'column') return [];
  const words = text.slice(s.start, s.end);
  return (s.ms as ColumnMention[]).filter((m) => isDimension(m.column) && /s$/.test(words) && words !== m.column.name.replace(/_/g, ' '));
}

/** The groups read, with the kept group added unless they group by it already ("which countries have ..."). */
export function withKeptGroup(groups: Group[], kept: { group: Group } | undefined): Group[] {
  const group = kept?.group;
  if (group?.kind === 'label') return groups.some((g) => g.kind === 'label' && g.tables.some((t) => group.tables.includes(t))) ? groups : [group, ...groups];
  if (group?.kind !== 'column') return groups;
  const same = groups.some((g) => g.kind === 'column' && g.columns.some((c) => group.columns.some((k) => k.column === c.column)));
  return same ? groups : [group, ...groups];
}
