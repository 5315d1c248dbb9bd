// "Revenue per customer", "average number of orders per customer", "items per order": a total divided
// by how many of another table's rows it spreads over. "per" before a column groups ("revenue per
// country"); before a table it divides. The rows divided by are those the total counts: the distinct
// keys of the table named, read where the measured rows point to it ("revenue per customer" is the
// revenue of completed and shipped orders over the customers who placed them), so a customer without
// such orders is not counted, and the answer says so.
import type { TableDocument } from '../ports.ts';
import type { Intent, PerEach } from './intent.ts';
import { docKey, joinPath, keyColumn } from './joins.ts';
import type { Span } from './keywords.ts';
import type { PlanBuilder } from './plan-builder.ts';
import type { ColumnRef, PerEachCount, PlanMeasure } from './plan.ts';
import { addsUp } from './units.ts';
import { nonAdditive, singular, type Schema } from './vocabulary.ts';
import type { Marks } from './words.ts';

const PER = /\bper $/;
/** One row of a table in words: "order items" -> "order item". */
const nounOf = (t: TableDocument) => singular(t.name.replace(/_/g, ' '));
// "the top 3 products per category" ranks within each group: no division.
const RANKED = /\b(?:top|bottom|first|which|what|most|least|best|worst|highest|lowest|biggest|largest|smallest)\b/;
// "average revenue per customer": the division is the average; "average" adds nothing to it ("average
// daily" is another division, per-unit.ts).
const AVERAGE = /\b(?:average|avg|mean)\b(?! (?:daily|weekly|monthly|quarterly|yearly|annual)\b)/;

/**
 * The table a question divides by ("per customer"), its words taken; the span leaves `spans`, since
 * the table is no subject, group or filter of the question.
 */
export function readPerEach(text: string, spans: Span[], marks: Marks): PerEach | undefined {
  const at = spans.findIndex((s) => s.kind === 'table' && PER.test(text.slice(0, s.start)));
  if (at < 0) return undefined;
  const span = spans[at]!;
  const per = PER.exec(text.slice(0, span.start))!;
  const ranksRows = spans[at - 1]?.kind === 'table' && spans[at - 1]!.end + 1 === per.index && RANKED.test(text.slice(0, per.index));
  if (ranksRows) return undefined;
  marks.take(per.index, span.start);
  spans.splice(at, 1);
  const average = AVERAGE.exec(marks.blanked().slice(0, per.index));
  if (average) marks.take(average.index, average.index + average[0].length);
  return { tables: span.ms.map((m) => m.table), word: text.slice(per.index, span.end) };
}

/**
 * The keys to count for "per <table>": the subject's own key when it is that table, else the column
 * by which each measured row points to one row of it (joining the tables between); or why not.
 */
export function perEachOf(b: PlanBuilder, schema: Schema, intent: Intent, measure: PlanMeasure): PerEachCount | string {
  const per = intent.perEach!;
  if (intent.perUnit || intent.share || intent.change || intent.display?.share) return `it asks for a total ${per.word} and for other units at once`;
  if (measure.kind === 'rows') return `it asks for rows ${per.word}, which are no total to divide (ask how many there are ${per.word}, or list them by ${nounOf(per.tables[0]!)})`;
  const column = measure.kind === 'column' ? measure.ref.column : undefined;
  const kind = column && nonAdditive(column);
  if (kind) return `${column!.name} is documented as ${kind === 'share' ? 'a share' : 'a value of one unit'}, which is no total to divide ${per.word}`;
  if (!addsUp(measure)) return `it asks for something ${per.word} that is not a total to divide (a count, an amount, or a metric that adds up)`;
  const found = per.tables.map((table) => countedKey(b, schema, table, measure)).filter((r): r is PerEachCount => r !== undefined);
  if (found.length === 1) return found[0]!;
  return `it asks for a total ${per.word}, and no documented relationship leads from each of the ${b.subject.name.replace(/_/g, ' ')} counted to one ${nounOf(per.tables[0]!)}`;
}

function countedKey(b: PlanBuilder, schema: Schema, table: TableDocument, measure: PlanMeasure): PerEachCount | undefined {
  const noun = nounOf(table);
  const column = (t: TableDocument, name: string | undefined): ColumnRef | undefined => (name ? { table: t, column: t.columns.find((c) => c.name === name) ?? { name } } : undefined);
  if (docKey(table) === docKey(b.subject)) {
    // "customers per customer" is one; a total of its rows per row ("revenue per order") is their average.
    const ref = measure.kind === 'count' ? undefined : column(table, keyColumn(schema, table));
    return ref && { ref, noun };
  }
  // Only along joins that keep each measured row once: a total per product of order totals has no reading.
  const last = joinPath(schema, b.subject, table, { fanOut: false })?.at(-1);
  if (!last || !b.join(last.from)) return undefined;
  const ref = column(last.from, last.fromColumn)!;
  return { ref: b.use(ref) ?? ref, noun };
}
