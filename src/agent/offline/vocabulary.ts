// The words of the documented tables: table names, column names and synonyms, and the values
// listed in column descriptions ('completed', 'Germany'...), matched against a question.
import type { RelationshipDocument, TableColumnDoc, TableDocument } from '../ports.ts';

export type Mention =
  | { kind: 'table'; table: TableDocument; start: number; end: number }
  | { kind: 'column'; table: TableDocument; column: TableColumnDoc; start: number; end: number }
  | { kind: 'value'; table: TableDocument; column: TableColumnDoc; value: string; start: number; end: number };

/** Knowledge the offline model plans with. */
export interface Schema {
  tables: TableDocument[];
  relationships: RelationshipDocument[];
}

export const tableKey = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`.toLowerCase();

const NUMERIC = /INT|DECIMAL|NUMERIC|DOUBLE|FLOAT|REAL|HUGEINT|NUMBER|MONEY/i;
const TEMPORAL = /DATE|TIME/i;

/** Numeric and not an identifier: something to add up or average. */
export const isMeasure = (c: TableColumnDoc) => NUMERIC.test(c.type ?? '') && !/(^id$|_id$)/i.test(c.name);
export const isTemporal = (c: TableColumnDoc) => TEMPORAL.test(c.type ?? '');
/** Text-like columns people group and filter by. */
export const isDimension = (c: TableColumnDoc) => !isMeasure(c) && !isTemporal(c) && !/(^id$|_id$)/i.test(c.name);

const words = (s: string) => s.toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ').trim();

/** Plural and singular forms of a phrase (last word only). */
export function forms(phrase: string): string[] {
  const p = words(phrase);
  const out = new Set([p]);
  if (p.endsWith('ies')) out.add(`${p.slice(0, -3)}y`);
  else if (p.endsWith('s')) out.add(p.slice(0, -1));
  if (p.endsWith('y') && !/[aeiou]y$/.test(p)) out.add(`${p.slice(0, -1)}ies`);
  else if (!p.endsWith('s')) out.add(`${p}s`);
  return [...out];
}

/** Values a column description lists in quotes: "Status: 'completed', 'shipped'...". */
export function listedValues(c: TableColumnDoc): string[] {
  const out: string[] = [];
  for (const m of (c.description ?? '').matchAll(/'([^']{1,60})'|"([^"]{1,60})"/g)) out.push((m[1] ?? m[2])!);
  return out;
}

/** Every mention of a table, column or listed value, longest matches first, without overlaps. */
export function findMentions(text: string, schema: Schema): Mention[] {
  const found: Mention[] = [];
  const scan = (phrase: string, make: (start: number, end: number) => Mention) => {
    const p = words(phrase);
    if (p.length < 2) return;
    const re = new RegExp(`(?<![\\w])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g');
    for (const m of text.matchAll(re)) found.push(make(m.index, m.index + m[0].length));
  };
  for (const table of schema.tables) {
    for (const f of forms(table.name)) scan(f, (start, end) => ({ kind: 'table', table, start, end }));
    for (const column of table.columns) {
      for (const phrase of [column.name, ...(column.synonyms ?? [])]) {
        for (const f of forms(phrase)) scan(f, (start, end) => ({ kind: 'column', table, column, start, end }));
      }
      for (const value of listedValues(column)) scan(value, (start, end) => ({ kind: 'value', table, column, value, start, end }));
    }
  }
  // Longest first; equal spans are kept together (the same words in several tables).
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: Mention[] = [];
  for (const m of found) {
    const clash = taken.some((t) => m.start < t.end && t.start < m.end && !(t.start === m.start && t.end === m.end));
    if (!clash) taken.push(m);
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** Join path (list of edges) from one table to another along documented relationships. */
export function joinPath(schema: Schema, from: string, to: string): { from: string; fromColumn: string; to: string; toColumn: string; fanOut: boolean }[] | undefined {
  if (from === to) return [];
  type Edge = { from: string; fromColumn: string; to: string; toColumn: string; fanOut: boolean };
  const edges: Edge[] = [];
  for (const r of schema.relationships) {
    const b = tableKey({ schema: r.to.schema, name: r.to.table });
    const aKey = tableKey({ schema: r.from.schema, name: r.from.table });
    // many_to_one: walking from the many side to the one side keeps row counts; the reverse fans out.
    edges.push({ from: aKey, fromColumn: r.from.column, to: b, toColumn: r.to.column, fanOut: r.kind === 'one_to_many' });
    edges.push({ from: b, fromColumn: r.to.column, to: aKey, toColumn: r.from.column, fanOut: r.kind === 'many_to_one' });
  }
  const prev = new Map<string, Edge>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const cur = queue.shift()!;
    if (cur === to) break;
    for (const e of edges.filter((x) => x.from === cur && !seen.has(x.to))) {
      seen.add(e.to);
      prev.set(e.to, e);
      queue.push(e.to);
    }
  }
  if (!prev.has(to)) return undefined;
  const path: Edge[] = [];
  for (let cur = to; cur !== from; ) {
    const e = prev.get(cur)!;
    path.unshift(e);
    cur = e.from;
  }
  return path;
}
