// A saved statement narrowed by a dashboard's filters, as a statement with bound parameters: one
// fixed shape around the statement, `SELECT * FROM (<statement>) AS sextant_tile WHERE ...`, whose
// conditions compare the result's column (an identifier quoted by quoteIdent) with placeholders in
// the dialect's own form (`$n` on PostgreSQL and DuckDB, `?` on MySQL/MariaDB and SQLite), and the
// values beside it as a typed list in placeholder order. No value is ever written into the text. The
// governed path takes both: the guard accepts the placeholders only because their values come with
// them, one each (a placeholder in the saved statement itself makes one too many and is refused,
// guard/bind-params.ts); row security rewrites the base tables inside the subquery and keeps the
// placeholders where they are; the driver binds the values through its warehouse's own protocol.
import { quoteIdent } from '../guard/index.ts';
import type { SqlDialect, SqlParam } from '../types.ts';

/** One filter on a result column: a date range (`before` exclusive) or values to keep. */
export interface ResultFilter {
  field: string;
  from?: string | undefined;
  before?: string | undefined;
  values?: (string | number)[] | undefined;
  /**
   * The result column's type as the warehouse names it, when known: values are then compared as that
   * type (a number as text against a text column, a numeric text as a number against a number
   * column), so a list mixing both neither errors (PostgreSQL has no `text = numeric`) nor depends on
   * the warehouse's implicit casts.
   */
  columnType?: string | undefined;
}

/** A statement and the values of its placeholders, in order. */
export interface BoundStatement {
  sql: string;
  params: SqlParam[];
}

const ALIAS = 'sextant_tile';

/**
 * The placeholder of the n-th value (from 1) as each dialect writes it. PostgreSQL types an untyped
 * value from where it stands, so a number compared with an integer column would be read as an
 * integer (2.5 an error); `::numeric` compares it as a number, as the literal 2.5 would be. The other
 * warehouses bind a number as a number (DuckDB and MySQL as a DOUBLE, SQLite as INTEGER or REAL).
 */
const PLACEHOLDER: Record<SqlDialect, (n: number, p: SqlParam) => string> = {
  postgresql: (n, p) => (p.type === 'number' ? `$${n}::numeric` : `$${n}`),
  duckdb: (n) => `$${n}`,
  mysql: () => '?',
  sqlite: () => '?',
};

/** The statement without trailing semicolons; the newline keeps a trailing `--` comment off the wrapper. */
const inner = (sql: string) => `SELECT * FROM (\n${sql.replace(/[\s;]+$/, '')}\n) AS ${ALIAS}`;

function valueParam(v: string | number): SqlParam {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('A filter value must be a finite number');
    return { type: 'number', value: v };
  }
  return { type: 'text', value: v };
}

/** Type names of number columns in the four dialects (`int4`, `DECIMAL(12,2)`, `DOUBLE`, `HUGEINT`, ...). */
const NUMBER_TYPE = /^(u?(tiny|small|medium|big|huge)?int(eger)?\d*|int[248]|numeric|decimal|number|real|double|float\d*|dec|fixed)\b/i;
/** Type names of text columns. */
const TEXT_TYPE = /^(var)?char|^(tiny|medium|long)?text\b|^string\b|^bpchar\b|^character\b|^name\b|^nvarchar|^nchar|^clob\b/i;
/** A decimal number as text, as every warehouse reads one (no hex, no `Infinity`). */
const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The values compared as the column's type; a text that is no number cannot equal a number column's value. */
function asColumnType(values: (string | number)[], type: string | undefined): (string | number)[] {
  if (type !== undefined && NUMBER_TYPE.test(type.trim())) return values.flatMap((v) => (typeof v === 'number' ? [v] : DECIMAL.test(v) && Number.isFinite(Number(v)) ? [Number(v)] : []));
  if (type !== undefined && TEXT_TYPE.test(type.trim())) return values.map((v) => (typeof v === 'number' ? String(v) : v));
  return values;
}

/** A filter's conditions; `bind` adds a value and returns its placeholder. */
function predicate(dialect: SqlDialect, f: ResultFilter, bind: (p: SqlParam) => string): string[] {
  const col = `${ALIAS}.${quoteIdent(dialect, f.field)}`;
  const out: string[] = [];
  if (f.from) out.push(`${col} >= ${bind({ type: 'date', value: f.from })}`);
  if (f.before) out.push(`${col} < ${bind({ type: 'date', value: f.before })}`);
  if (f.values && f.values.length > 0) {
    const values = asColumnType(f.values, f.columnType);
    // No value of the list can equal the column's: the filter keeps no row.
    out.push(values.length === 0 ? '1 = 0' : `${col} IN (${values.map((v) => bind(valueParam(v))).join(', ')})`);
  }
  return out;
}

/** The statement with the filters applied to its result, and the values to bind (unchanged, none, when there are no filters). */
export function filterResultSql(dialect: SqlDialect, sql: string, filters: ResultFilter[]): BoundStatement {
  const params: SqlParam[] = [];
  const bind = (p: SqlParam) => {
    params.push(p);
    return PLACEHOLDER[dialect](params.length, p);
  };
  const where = filters.flatMap((f) => predicate(dialect, f, bind));
  return where.length === 0 ? { sql, params: [] } : { sql: `${inner(sql)} WHERE ${where.join(' AND ')}`, params };
}

/** A statement that returns the result's columns and no row: which fields a filter can apply to. */
export function resultColumnsSql(sql: string): string {
  return `${inner(sql)} WHERE 1 = 0`;
}
