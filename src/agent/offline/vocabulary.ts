// The words of the documented knowledge: table names, column names and synonyms, governed metrics
// and their synonyms, and the values listed in column descriptions ('completed', 'Germany'...),
// matched against a question.
import type { MetricDoc, RelationshipDocument, TableColumnDoc, TableDocument } from '../ports.ts';

export type Mention =
  | { kind: 'table'; table: TableDocument; start: number; end: number }
  | { kind: 'column'; table: TableDocument; column: TableColumnDoc; start: number; end: number }
  /** `negated`: the question leaves the value out ("excluding web", "not cancelled"). */
  | { kind: 'value'; table: TableDocument; column: TableColumnDoc; value: string; start: number; end: number; negated?: true }
  | { kind: 'metric'; table: TableDocument; metric: MetricDoc; start: number; end: number };

/** Knowledge the offline model plans with. */
export interface Schema {
  tables: TableDocument[];
  relationships: RelationshipDocument[];
  /** Repository path of each document, for the sources an answer names. */
  paths: Map<TableDocument | RelationshipDocument, string>;
}

export const tableKey = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`.toLowerCase();

const NUMERIC = /INT|DECIMAL|NUMERIC|DOUBLE|FLOAT|REAL|HUGEINT|NUMBER|MONEY/i;
const TEMPORAL = /DATE|TIME/i;
const IDENTIFIER = /(^id$|_id$)/i;

/** Numeric and not an identifier: something to add up or average. */
export const isMeasure = (c: TableColumnDoc) => NUMERIC.test(c.type ?? '') && !IDENTIFIER.test(c.name);
export const isTemporal = (c: TableColumnDoc) => TEMPORAL.test(c.type ?? '');

// Measures whose rows do not add up, as their documentation or name says. A value of one unit ("price
// of one unit", "cost per unit") adds up only where a question asks for its total; a share never: a
// description that opens with it ("Discount rate of the line", "Share of ...") or says it ("as a
// fraction", "0.10 = 10%", "in percent"), or a name ending in _rate or _pct. Words that only mention a
// rate ("Amount converted at the daily exchange rate") do not make an amount a share.
const PER_UNIT = /\b(?:of|per|for) (?:one|each|a|1) unit\b|\bper unit\b/i;
const SHARE = /^(?:an? |the )?(?:[\w-]+ )?(?:fraction|percentage|ratio|rate|share|proportion)\b|\bas an? (?:fraction|percentage|ratio|rate|share|proportion)\b|\b\d*\.\d+ = \d+ ?%|\bin percent\b/i;
const SHARE_NAME = /(?:^|_)(?:rate|ratio|pct|percent|percentage|share)$/i;
/** How a measure's rows add up: 'share' never, 'unit' only when a total is asked for, undefined freely. */
export const nonAdditive = (c: TableColumnDoc): 'share' | 'unit' | undefined =>
  !isMeasure(c) ? undefined : SHARE.test(c.description ?? '') || SHARE_NAME.test(c.name) ? 'share' : PER_UNIT.test(c.description ?? '') ? 'unit' : undefined;
// Column names that say nothing without their table: "where name is Yara Smith" is whose name?
const BARE = /^(name|title|label|code|type|description)$/i;

/** A table's name for one of its rows: "categories" -> "category", "orders" -> "order". */
export const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

/** A column in words, with its table's in the singular where its name is bare: "customer name", but "city". */
export const qualifiedColumn = (table: string, column: string) => {
  const words = column.replace(/_/g, ' ');
  return BARE.test(column) ? `${singular(table.replace(/_/g, ' '))} ${words}` : words;
};

/** Contact details: nobody groups by them or names a value of them in words. */
export const isContact = (c: TableColumnDoc) => /e_?mail|phone|address/i.test(c.name);
/** Text-like columns people group and filter by. */
export const isDimension = (c: TableColumnDoc) => !isMeasure(c) && !isTemporal(c) && !IDENTIFIER.test(c.name);

/** A table whose rows are purchases: its last word is one of these ("orders", "sales", "web_purchases"). */
const PURCHASES = /(?:^| )(?:order|purchase|sale|transaction)$/;
/** The verbs of buying, which name such a table as "ordered" names orders (and "purchases" counts its rows). */
export const BUYING: readonly string[] = ['bought', 'buy', 'buys', 'purchased', 'purchase'];

const words = (s: string) => s.toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ').trim();

/** The ways people write "average" at the start of a phrase: "average basket size" is also "avg basket size". */
const AVERAGE_HEAD = /^(?:average|avg|mean) /;

/** Plural and singular forms of a phrase (last word only), and its other ways of writing "average" first. */
export function forms(phrase: string): string[] {
  const p = words(phrase);
  const heads = AVERAGE_HEAD.test(p) ? ['average', 'avg', 'mean'].map((h) => p.replace(AVERAGE_HEAD, `${h} `)) : [p];
  return [...new Set(heads.flatMap(lastWordForms))];
}

function lastWordForms(p: string): string[] {
  const out = new Set([p]);
  if (p.endsWith('ies')) out.add(`${p.slice(0, -3)}y`);
  else if (p.endsWith('s')) out.add(p.slice(0, -1));
  if (p.endsWith('y') && !/[aeiou]y$/.test(p)) out.add(`${p.slice(0, -1)}ies`);
  else if (!p.endsWith('s')) out.add(/(x|ch|sh)$/.test(p) ? `${p}es` : `${p}s`);
  // "status": "statuses" (a plural name such as "orders" is not made "orderses").
  if (/(?<![aeiou])us$|ss$/.test(p)) out.add(`${p}es`);
  return [...out];
}

/** Values a column description lists in quotes ("Status: 'completed', 'shipped'..."), and those found in the data for this question. */
export function listedValues(c: TableColumnDoc): string[] {
  const out: string[] = [...(c.values ?? [])];
  for (const m of (c.description ?? '').matchAll(/'([^']{1,60})'|"([^"]{1,60})"/g)) out.push((m[1] ?? m[2])!);
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Phrase = { words: string; make: (start: number, end: number) => Mention; value?: true };

/** A table's phrases, worked out once per document: a chat's turns all plan over the same search results. */
const phrasesByTable = new WeakMap<TableDocument, Phrase[]>();

const BARE_STOP = /^(?:id|key|uuid|total|count|number|sum|average|avg|mean|median|min|max|minimum|maximum)$/;

function phrasesOf(table: TableDocument): Phrase[] {
  const cached = phrasesByTable.get(table);
  if (cached) return cached;
  const out: Phrase[] = [];
  const add = (phrase: string, make: Phrase['make'], value?: true) => {
    const p = words(phrase);
    if (p.length >= 2) out.push({ words: p, make, ...(value ? { value } : {}) });
  };
  const tableForms = forms(table.name);
  // "ordered", "purchased": the verb of a table names it too ("customers who ordered in 2025").
  const verbs = tableForms.filter((f) => !f.endsWith('s')).map((f) => (f.endsWith('e') ? `${f}d` : `${f}ed`));
  // "customers who bought Electronics": a table of purchases is named by the verbs of buying as well.
  if (tableForms.some((f) => PURCHASES.test(f))) verbs.push(...BUYING, 'purchases');
  for (const f of [...tableForms, ...verbs]) add(f, (start, end) => ({ kind: 'table', table, start, end }));
  for (const column of table.columns) {
    const column_ = (start: number, end: number): Mention => ({ kind: 'column', table, column, start, end });
    for (const phrase of [column.name, ...(column.synonyms ?? [])]) {
      for (const f of forms(phrase)) {
        add(f, column_);
        // "product category", "customer country": the table's name qualifying one of its columns.
        for (const t of tableForms) add(`${t} ${f}`, column_);
      }
    }
    // A value names its rows in the plural too: "revenue of jaffles" for the type 'jaffle'.
    for (const value of listedValues(column)) for (const v of /^[a-z]+[^s]$/i.test(value) ? [value, `${value}s`] : [value]) add(v, (start, end) => ({ kind: 'value', table, column, value, start, end }), true);
    // "price" for products.product_price: dbt models prefix columns with their table's own name. Not
    // a key, nor a word the reader asks with ("total" of order_total is "the total revenue"'s).
    const bare = tableForms.map((t) => `${t.replace(/ /g, '_')}_`).filter((prefix) => column.name.startsWith(prefix)).map((prefix) => column.name.slice(prefix.length))[0];
    if (bare && !BARE_STOP.test(bare) && !table.columns.some((c) => c.name === bare)) for (const f of forms(bare)) add(f, column_);
  }
  for (const metric of table.metrics ?? []) {
    for (const phrase of [metric.name, ...(metric.synonyms ?? [])]) for (const f of forms(phrase)) if (!namesRows(f, phrase, tableForms)) add(f, (start, end) => ({ kind: 'metric', table, metric, start, end }));
  }
  phrasesByTable.set(table, out);
  return out;
}

/**
 * Whether a metric's phrase, in a form the knowledge did not write, ends in its table's noun instead:
 * "average orders" (in "average orders per customer") counts orders, it is not the plural of "average
 * order", the average order value.
 */
function namesRows(form: string, phrase: string, tableForms: string[]): boolean {
  const last = form.slice(form.lastIndexOf(' ') + 1);
  return form.includes(' ') && last !== words(phrase).split(' ').at(-1) && tableForms.includes(last);
}

/** A table's single words (names, synonyms, metrics; not listed values), worked out once per document. */
const wordsByTable = new WeakMap<TableDocument, Set<string>>();

function wordsOf(table: TableDocument): Set<string> {
  let words = wordsByTable.get(table);
  if (!words) {
    words = new Set<string>();
    for (const p of phrasesOf(table)) if (!p.value) for (const w of p.words.split(' ')) words.add(w);
    wordsByTable.set(table, words);
  }
  return words;
}

/**
 * The single words of the knowledge's names, synonyms and metrics: what a misspelt or inflected word
 * may stand for, with the tables they belong to. Listed values are left out: "ship" is not the
 * status 'shipped'.
 */
export function vocabularyWords(schema: Schema): Map<string, Set<TableDocument>> {
  const out = new Map<string, Set<TableDocument>>();
  for (const table of schema.tables) for (const w of wordsOf(table)) out.set(w, (out.get(w) ?? new Set()).add(table));
  return out;
}

/** Whether a word is one of the knowledge's (vocabularyWords). */
export const knowsWord = (schema: Schema, word: string) => schema.tables.some((t) => wordsOf(t).has(word));

// A metric that counts every row of its table, without a filter: "orders" as SUM(1) or COUNT(*).
const ROW_COUNT = /^\s*(?:count\s*\(\s*(?:\*|1)\s*\)|sum\s*\(\s*1\s*\))\s*$/i;
export const countsEveryRow = (metric: MetricDoc) => ROW_COUNT.test(metric.expression) && !metric.filter;

/** Every mention of a table, column, metric or listed value, longest matches first, without overlaps. */
export function findMentions(text: string, schema: Schema): Mention[] {
  const found: Mention[] = [];
  const search = (phrases: Phrase[]) => {
    for (const { words: p, make } of phrases) {
      // Most phrases of the knowledge are not in a given question: a substring test rules them out
      // without building and running a regular expression for each (most of a question's planning CPU).
      if (!text.includes(p)) continue;
      for (const m of text.matchAll(new RegExp(`(?<![\\w'])${escape(p)}(?![\\w'])`, 'g'))) found.push(make(m.index, m.index + m[0].length));
    }
  };
  for (const table of schema.tables) search(phrasesOf(table));
  search(headNouns(schema.tables));
  return withoutOverlaps(found);
}

const headNounsBySchema = new WeakMap<TableDocument[], Phrase[]>();

/**
 * "items" for order_items: a table named by another table's row and a noun ("order items") is named by
 * the noun alone too ("orders with more than 3 items", "items per order"). Only then: in "stg_orders" or
 * "fct_orders" the first word names no table, and "orders" stays the orders table's.
 */
function headNouns(tables: TableDocument[]): Phrase[] {
  let out = headNounsBySchema.get(tables);
  if (out) return out;
  const rows = new Set(tables.flatMap((t) => forms(t.name)));
  out = [];
  for (const table of tables) {
    const [owner, noun, ...rest] = table.name.toLowerCase().split('_');
    if (!owner || !noun || rest.length > 0 || !rows.has(owner) || rows.has(noun)) continue;
    for (const f of forms(noun)) out.push({ words: f, make: (start, end) => ({ kind: 'table', table, start, end }) });
  }
  headNounsBySchema.set(tables, out);
  return out;
}

/**
 * Longest first; equal spans are kept together (the same words in several tables). A phrase whose last
 * words start a longer one loses to it: in "number of order items" the words "order items" name a
 * table, so "number of order" (a metric's "number of orders") is not read; a noun compound goes on.
 */
function withoutOverlaps(found: Mention[]): Mention[] {
  const goesOn = new Set(found.filter((a) => found.some((b) => b.start > a.start && b.start < a.end && b.end > a.end)));
  found.sort((a, b) => Number(goesOn.has(a)) - Number(goesOn.has(b)) || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: Mention[] = [];
  for (const m of found) {
    const clash = taken.some((t) => m.start < t.end && t.start < m.end && !(t.start === m.start && t.end === m.end));
    const same = taken.some((t) => t.start === m.start && t.end === m.end && t.kind === m.kind && t.table === m.table && sameTarget(t, m));
    if (!clash && !same) taken.push(m);
  }
  return taken.sort((a, b) => a.start - b.start);
}

function sameTarget(a: Mention, b: Mention): boolean {
  if (a.kind === 'column' && b.kind === 'column') return a.column === b.column;
  if (a.kind === 'value' && b.kind === 'value') return a.column === b.column && a.value === b.value;
  if (a.kind === 'metric' && b.kind === 'metric') return a.metric === b.metric;
  return true;
}

/** The table of `name` (as a metric's `table.column` names it) among the documented tables of a connection. */
export function tableNamed(schema: Schema, connection: string, name: string): TableDocument | undefined {
  const lower = name.toLowerCase();
  return schema.tables.find((t) => t.connection === connection && t.name.toLowerCase() === lower);
}
