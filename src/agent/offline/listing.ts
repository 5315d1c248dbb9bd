// Questions that ask for rows rather than a number: "list customers in Germany", "show me the orders
// over 5000 last month", "the 5 most recent orders", "latest orders", "the largest order"; or for a
// column's values ("list the categories"). The words that ask are read here; read-measure.ts decides
// whether rows are what the question measures.
import type { ColumnMention } from './intent.ts';
import { HANDFUL_ROWS, rowCount, type Span } from './keywords.ts';
import { forms, isContact, isDimension, isMeasure, isTemporal } from './vocabulary.ts';
import type { Marks } from './words.ts';

/** Rows of the table of `span` asked for: `newest` orders them by their date, `limit` keeps the first few. */
export interface Listing {
  span: Span;
  /** The values of a column asked for instead ("list the categories"): `span` is that column's. */
  values?: true;
  /** "the latest", "most recent": newest first ('desc'); "the earliest", "oldest": oldest first. */
  newest?: 'asc' | 'desc';
  /** "the largest orders": by the table's only measure column, largest first ('desc'). */
  largest?: 'asc' | 'desc';
  limit?: number;
  /** The words that asked for the order, already taken, for a refusal when rows are not what is measured. */
  word?: string;
  /** Where the number of rows is ("list 20 customers"), taken only when rows are what is measured. */
  count?: [number, number];
  /** Asked as "which customers ...": the rows, unless the question also ranks or measures them. */
  which?: true;
}

// A question opening with a verb that asks to see things: the rows are of the first table it names.
const VERB = /^(?:(?:can|could|would) you |please )*(?:list|show(?: me)?|display|give me|get me|find|what are|which are)\b/;
// Right before a table named in the plural: "the 5 most recent", "last 10", "10 newest", "latest".
const RECENT = /(?:(\d+) )?(most recent|latest|newest|last|recent|earliest|oldest|first)(?: (\d+))? $/;
const WHICH = /^(?:(?:can|could|would) you (?:tell me |show me )?|please )*(?:which|what) $/;
const COUNT = /(?:^| )(\d+) $/;
// Right before a table with one measure column: "the largest order", "the 5 biggest orders".
const LARGEST = /(?:(\d+) )?(largest|biggest|smallest)(?: (\d+))? $/;

/** The rows a question asks for, if it asks for rows; the words read are taken from `marks`. */
export function readListing(text: string, spans: Span[], marks: Marks): Listing | undefined {
  const dated = spans.some((s) => s.kind === 'table') ? undefined : datedByName(text, spans);
  const span = spans.find((s) => s.kind === 'table') ?? spans.find((s) => namesItsTable(text, s)) ?? dated;
  // "list the categories", "what are the sales channels": a column people group by, in the plural, first.
  const column = spans[0]?.kind === 'column' && spans[0].ms.every((m) => m.kind === 'column' && isDimension(m.column)) ? spans[0] : undefined;
  if (column && VERB.test(text.slice(0, column.start)) && /s$/.test(text.slice(column.start, column.end))) {
    // "list customer emails": a contact detail is its row's own, so the rows are listed with it, not counted by it.
    if (column.ms.every((m) => m.kind === 'column' && isContact(m.column))) return { span: { ...column, kind: 'table', ms: column.ms.map((m) => ({ kind: 'table', table: m.table, start: m.start, end: m.end })) } };
    return { span: column, values: true };
  }
  if (!span) return undefined;
  const plural = span === dated || text.slice(span.start, span.end).endsWith('s');
  // Listed values may stand between: "the 5 latest cancelled orders".
  let at = span.start;
  for (let v = valueEndingAt(spans, at - 1); v; v = valueEndingAt(spans, at - 1)) at = v.start;
  const before = text.slice(0, at);
  const largest = span.ms.every((m) => m.table.columns.filter(isMeasure).length === 1) ? LARGEST.exec(before) : null;
  if (largest) {
    marks.take(largest.index, at);
    const n = largest[1] ?? largest[3];
    return { span, largest: largest[2] === 'smallest' ? 'asc' : 'desc', limit: n ? rowCount(n) : plural ? HANDFUL_ROWS : 1, word: largest[0].trim() };
  }
  if (!plural) return undefined;
  const recent = RECENT.exec(before);
  if (recent) {
    marks.take(recent.index, at);
    const n = recent[1] ?? recent[3];
    return { span, newest: /earliest|oldest|first/.test(recent[2]!) ? 'asc' : 'desc', limit: n ? rowCount(n) : HANDFUL_ROWS, word: recent[0].trim() };
  }
  // "which customers are in Germany": the customers, where nothing ranks them ("which customers spent the most").
  if (WHICH.test(before)) return { span, which: true };
  if (!VERB.test(before)) return undefined;
  // "list the top 5 customers by revenue": the number is the ranking's, read with it if rows are not what is asked.
  const count = COUNT.exec(before);
  return { span, ...(count ? { limit: rowCount(count[1]!), count: [count.index, at] as [number, number] } : {}) };
}

/**
 * A metric named as its own table ("orders", where a metric of that name counts the orders table): in
 * a list ("the 3 most recent orders"), the table's rows, not the metric (read-measure.ts).
 */
const namesItsTable = (text: string, s: Span) => s.kind === 'metric' && s.ms.every((m) => forms(m.table.name).includes(text.slice(s.start, s.end)));

const valueEndingAt = (spans: Span[], end: number) => spans.find((s) => s.kind === 'value' && s.end === end);

/**
 * "which customers signed up in 2025": the knowledge reads "customers signed up" as the customers'
 * signup date, a column whose words open with its table's name in the plural. Its rows are the table's
 * (listed here, counted in read-measure.ts: "customers signed up in 2025"). So are a date's own word
 * in the plural, the events it dates, one a row: "signups last month" for a date called "signup".
 */
export function datedByName(text: string, spans: Span[]): Span | undefined {
  const first = spans[0];
  if (first?.kind !== 'column' || !first.ms.every((m) => m.kind === 'column' && isTemporal(m.column))) return undefined;
  const words = text.slice(first.start, first.end);
  const named = (m: ColumnMention) => forms(m.table.name).some((f) => f.endsWith('s') && words.startsWith(`${f} `));
  return (first.ms as ColumnMention[]).every((m) => named(m) || eventsOf(m.column, words)) ? first : undefined;
}

/** `word` is one of a column's one-word names in the plural ("signups" of "signup"). */
const eventsOf = (column: ColumnMention['column'], word: string) =>
  /^[a-z]+s$/.test(word) && [column.name, ...(column.synonyms ?? [])].some((p) => /^[a-z]+$/.test(p) && !p.endsWith('s') && forms(p).includes(word));
