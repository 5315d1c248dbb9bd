// Values the knowledge does not list: "revenue in Chicago", where the knowledge documents a location
// name column without its values. Words the question leaves unread are looked up in the documented
// text columns whose values are not listed (the look_up_values tool: one governed query, under the
// user's row security), and the values found are read as if the knowledge listed them, for this
// question and, looked up again, its follow-ups. Nothing found: the question is refused as before,
// naming the words.
import type { TableColumnDoc, TableDocument } from '../ports.ts';
import { joinPath } from './joins.ts';
import { mayBeName } from './language.ts';
// What the tool takes: plain identifiers, and phrases of plain words.
import { NAME, PHRASE } from '../tools/look-up-values.ts';
import { isContact, isDimension, listedValues, qualifiedColumn, type Schema } from './vocabulary.ts';

/** Where a value was found. */
export interface FoundValue {
  schema: string;
  table: string;
  column: string;
  value: string;
}

const TEXT = /char|text|string/i;
const MAX_COLUMNS = 8;
const MAX_PHRASES = 12;
/** Values are names of a few words: "new orleans", "st mary's". */
const MAX_WORDS = 3;

/**
 * The look_up_values call for a question whose `unread` words the knowledge does not know: the words
 * and their neighbours, up to three words long, in the text columns without listed values of `from`
 * (the table the measure likely is of) and of the tables joined to it, nearest first: a value in a
 * table no relationship reaches could not filter the answer. undefined when there is nothing to look
 * in or for.
 */
export function lookUpRequest(text: string, unread: string[], schema: Schema, from: TableDocument): { connection_id: string; columns: { schema: string; table: string; column: string }[]; phrases: string[] } | undefined {
  const columns = schema.tables
    .map((t) => ({ t, hops: joinPath(schema, from, t, { fanOut: true })?.length }))
    .filter((x): x is { t: TableDocument; hops: number } => x.hops !== undefined && NAME.test(x.t.schema) && NAME.test(x.t.name))
    .sort((a, b) => a.hops - b.hops)
    .flatMap(({ t }) => t.columns.filter((c) => unlisted(c)).map((c) => ({ schema: t.schema, table: t.name, column: c.name })))
    .slice(0, MAX_COLUMNS);
  const words = text.split(' ');
  const phrases = new Set<string>();
  for (let size = 1; size <= MAX_WORDS; size++) {
    for (let i = 0; i + size <= words.length; i++) {
      const window = words.slice(i, i + size);
      if (window.some((w) => unread.includes(w) && mayBeName(w)) && PHRASE.test(window.join(' '))) phrases.add(window.join(' '));
    }
  }
  // A value named in the plural ("revenue of jaffles") is looked for as written and in the singular.
  const each = [...phrases].flatMap((p) => (/^[a-z]+[^s]s$/.test(p) ? [p, p.slice(0, -1)] : [p]));
  if (columns.length === 0 || each.length === 0) return undefined;
  return { connection_id: from.connection, columns, phrases: each.slice(0, MAX_PHRASES) };
}

const unlisted = (c: TableColumnDoc) => NAME.test(c.name) && !isContact(c) && TEXT.test(c.type ?? '') && isDimension(c) && listedValues(c).length === 0;

/** The schema with the values found listed on their columns (copies of the tables they are in). */
export function withFoundValues(schema: Schema, found: FoundValue[]): Schema {
  if (found.length === 0) return schema;
  const paths: Schema['paths'] = new Map(schema.paths);
  const tables = schema.tables.map((t) => {
    const own = found.filter((f) => f.schema === t.schema && f.table === t.name);
    if (own.length === 0) return t;
    const columns = t.columns.map((c) => {
      const values = own.filter((f) => f.column === c.name).map((f) => f.value);
      return values.length > 0 ? { ...c, values: [...new Set([...(c.values ?? []), ...values])] } : c;
    });
    const copy: TableDocument = { ...t, columns };
    if (schema.paths.has(t)) paths.set(copy, schema.paths.get(t)!);
    return copy;
  });
  return { ...schema, tables, paths };
}

/** "Reading 'chicago' as the location name 'Chicago', found in the data." for each value a plan filters on. */
export function foundReadings(found: FoundValue[], filtered: { column: string; values: string[] }[]): string[] {
  return found
    .filter((f) => filtered.some((x) => x.column === f.column && x.values.includes(f.value)))
    .map((f) => `Reading '${f.value.toLowerCase()}' as the ${qualifiedColumn(f.table, f.column)} '${f.value}', found in the data.`);
}
