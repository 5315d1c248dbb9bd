// The small SQL expressions of governed metrics (`SUM(total_amount)`, `status IN ('completed')`):
// tokenized to check them when knowledge is written, and to qualify their column names with table
// aliases when the offline model builds a query. Only expressions pass: no statement keywords, no
// comments, no `;`. The SQL guard still checks every query that contains them. Also the check of a
// row filter's text, at the end.

export type ExpressionToken =
  | { kind: 'ident'; text: string; quoted: boolean }
  | { kind: 'number' | 'string' | 'op'; text: string };

/** Column references of an expression: `column` or `table.column`. */
export interface ColumnReference {
  table?: string;
  column: string;
}

const AGGREGATES = new Set(['sum', 'count', 'avg', 'min', 'max']);
// Words of an expression that are not columns (operators, CASE, literals and CAST target types).
const KEYWORDS = new Set(
  ('and or not in is null like ilike between case when then else end distinct true false as date timestamp interval ' +
    'integer int bigint smallint double float real decimal numeric varchar text boolean')
    .split(' '),
);
// Statement words: an expression holding one is trying to be a query.
const STATEMENT = new Set(
  ('select from join union intersect except with insert update delete drop create alter grant revoke attach detach copy pragma call ' +
    'exec execute into limit offset order group having window over where set load install returning')
    .split(' '),
);
const OPS = ['<=', '>=', '<>', '!=', '||', '::', '+', '-', '*', '/', '%', '=', '<', '>', '(', ')', ',', '.'];

// Token rules in order: the first whose pattern matches at the current position wins.
const RULES: [RegExp, (m: RegExpExecArray) => ExpressionToken | string | undefined][] = [
  [/^\s+/, () => undefined],
  [/^(?:--|\/\*)/, () => 'comments are not allowed'],
  [/^'(?:[^']|'')*'/, (m) => ({ kind: 'string', text: m[0] })],
  [/^'/, () => 'a quoted text is not closed'],
  [/^"((?:[^"]|"")+)"/, (m) => ({ kind: 'ident', text: m[1]!.replace(/""/g, '"'), quoted: true })],
  [/^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i, (m) => ({ kind: 'number', text: m[0] })],
  [/^[A-Za-z_][A-Za-z0-9_]*/, (m) => ({ kind: 'ident', text: m[0], quoted: false })],
  [new RegExp(`^(?:${OPS.map((o) => o.replace(/[|*+.()]/g, '\\$&')).join('|')})`), (m) => ({ kind: 'op', text: m[0] })],
];

/** Splits an expression into tokens; a string is the reason it cannot be one. */
export function tokenizeExpression(source: string): ExpressionToken[] | string {
  const out: ExpressionToken[] = [];
  let i = 0;
  outer: while (i < source.length) {
    const rest = source.slice(i);
    for (const [re, make] of RULES) {
      const m = re.exec(rest);
      if (!m) continue;
      const token = make(m);
      if (typeof token === 'string') return token;
      if (token) out.push(token);
      i += m[0].length;
      continue outer;
    }
    return `the character ${JSON.stringify(rest[0])} is not allowed`;
  }
  return out;
}

const word = (t: ExpressionToken | undefined) => (t?.kind === 'ident' && !t.quoted ? t.text.toLowerCase() : undefined);
const isCall = (tokens: ExpressionToken[], i: number) => tokens[i + 1]?.kind === 'op' && tokens[i + 1]!.text === '(';

/**
 * Checks a metric expression (`aggregate: true`: it must aggregate) or filter (`false`: it must not);
 * returns the problem, or undefined when the text is fine.
 */
export function checkExpression(source: string, { aggregate }: { aggregate: boolean }): string | undefined {
  const tokens = tokenizeExpression(source);
  if (typeof tokens === 'string') return tokens;
  if (tokens.length === 0) return 'the expression is empty';
  let depth = 0;
  let aggregates = 0;
  for (const [i, t] of tokens.entries()) {
    if (t.kind === 'op' && t.text === '(') depth++;
    if (t.kind === 'op' && t.text === ')' && --depth < 0) return 'a parenthesis is closed that was not opened';
    const w = word(t);
    if (w && STATEMENT.has(w)) return `"${t.text}" is a statement keyword; write an expression over the table's columns`;
    if (w && AGGREGATES.has(w) && isCall(tokens, i)) aggregates++;
  }
  if (depth !== 0) return 'a parenthesis is not closed';
  if (aggregate && aggregates === 0) return 'an aggregate (SUM, COUNT, AVG, MIN or MAX) is required';
  if (!aggregate && aggregates > 0) return 'a filter applies to rows and cannot aggregate';
  return undefined;
}

/** Column references in the order they appear (function names, keywords and literals left out). */
export function columnReferences(tokens: ExpressionToken[]): ColumnReference[] {
  const refs: ColumnReference[] = [];
  forEachColumn(tokens, (ref) => {
    refs.push(ref);
    return '';
  });
  return refs;
}

/**
 * Rewrites each column reference with `resolve` (e.g. into `t1.status`); undefined when a reference
 * cannot be resolved. Everything else is written back as it came.
 */
export function rewriteColumns(tokens: ExpressionToken[], resolve: (ref: ColumnReference) => string | undefined): string | undefined {
  let failed = false;
  const parts = forEachColumn(tokens, (ref) => {
    const sql = resolve(ref);
    if (sql === undefined) failed = true;
    return sql ?? '';
  });
  return failed ? undefined : joinParts(parts);
}

/** Joins token texts the way people write SQL: `SUM(t0.a * (1 - t0.b))`, `x IN ('a', 'b')`. */
function joinParts(parts: string[]): string {
  let sql = '';
  for (const [i, p] of parts.entries()) {
    const prev = parts[i - 1];
    const tight = i === 0 || p === ')' || p === ',' || p === '::' || prev === '(' || prev === '::' || (p === '(' && /^[A-Za-z_]\w*$/.test(prev ?? '') && !KEYWORDS.has(prev!.toLowerCase()));
    sql += tight ? p : ` ${p}`;
  }
  return sql;
}

function forEachColumn(tokens: ExpressionToken[], visit: (ref: ColumnReference) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'ident') {
      out.push(t.text);
      continue;
    }
    const w = word(t);
    if ((w && KEYWORDS.has(w)) || isCall(tokens, i)) {
      out.push(t.text);
      continue;
    }
    const dot = tokens[i + 1];
    const next = tokens[i + 2];
    if (dot?.kind === 'op' && dot.text === '.' && next?.kind === 'ident') {
      out.push(visit({ table: t.text, column: next.text }));
      i += 2;
    } else out.push(visit({ column: t.text }));
  }
  return out;
}

// Row filters. Each filter that applies is written into the statement as text, in parentheses of its
// own, `(<filter>) AND (<filter>)` (data/rls/render-filter.ts). A filter that closes its parenthesis
// early, `x) OR (1=1`, turns that into `(a) AND (x) OR (1=1)`: every row, whatever the other filters
// say; and an environment's draft filters come before production's (rls/production-filters.ts), so a
// modeler could loosen production's filter in their environment that way. A quote or a comment left
// open swallows the text after it the same way. So a filter must be one closed piece of text: quotes
// closed, parentheses balanced and never closed before they open, no comment, no `;`, no `$` but a
// placeholder's (PostgreSQL's dollar quotes), no backslash inside quotes (MySQL reads `\'` as a quote
// inside the text, PostgreSQL as its end), and `{{user.*}}` outside quotes (its value is quoted for
// you). Subqueries stay allowed; the guard checks the whole statement as it checks every other.

/** Where a quoted text or name starting at `start` ends (the index after it), or why it cannot. */
function afterQuote(text: string, start: number): number | string {
  const quote = text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') return 'a backslash inside quotes is read differently by each warehouse; write the character itself';
    if (text.startsWith('{{', i)) return 'write {{user.…}} without quotes around it: its value is quoted for you';
    if (text[i] !== quote) continue;
    if (text[i + 1] !== quote) return i + 1;
    i++;
  }
  return quote === "'" ? 'a quoted text is not closed' : 'a quoted name is not closed';
}

/** What in a row filter's text could reach past its own parentheses, or undefined when nothing can. */
export function rowFilterTextProblem(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = afterQuote(text, i);
      if (typeof end === 'string') return end;
      i = end;
      continue;
    }
    if (text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i);
      if (end < 0) return 'a {{ is not closed';
      i = end + 2;
      continue;
    }
    if (text.startsWith('--', i) || text.startsWith('/*', i) || c === '#') return 'comments are not allowed in a row filter';
    if (c === ';') return 'a row filter is one condition: ";" is not allowed';
    // `$1` is a placeholder, which the guard refuses with its own reason; any other `$` may open a dollar quote.
    if (c === '$' && !/[0-9]/.test(text[i + 1] ?? '')) return '"$" is not allowed in a row filter';
    if (c === '(') depth++;
    if (c === ')' && --depth < 0) return 'a parenthesis is closed that was not opened';
    i++;
  }
  return depth === 0 ? undefined : 'a parenthesis is not closed';
}
