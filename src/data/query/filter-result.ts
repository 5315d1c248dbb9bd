// A saved statement narrowed by a dashboard's filters, as a statement with bound parameters: one
// fixed shape around the statement, `SELECT * FROM (<statement>) AS sextant_tile WHERE ...` (a CTE
// naming the columns by position when their names collide, `positional` below), whose conditions
// compare the result's column (an identifier quoted by quoteIdent) with placeholders in the dialect's
// own form (`$n` on PostgreSQL and DuckDB, `?` on MySQL/MariaDB and SQLite), and the
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

/** The statement without trailing semicolons, on lines of its own: a trailing `--` comment stays off the wrapper. */
const body = (sql: string) => `\n${sql.replace(/[\s;]+$/, '')}\n`;
const inner = (sql: string) => `SELECT * FROM (${body(sql)}) AS ${ALIAS}`;

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

/** A filter's conditions on the column `col` names; `bind` adds a value and returns its placeholder. */
function predicate(col: string, f: ResultFilter, bind: (p: SqlParam) => string): string[] {
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

/** Whether two of a result's column names are equal, letter case aside (as MySQL and MariaDB compare them). */
const collide = (columns: readonly string[]) => new Set(columns.map((c) => c.toLowerCase())).size < columns.length;

/**
 * The wrapper for a result whose column names collide (a join's two `id` columns, `n` and `N`): a
 * derived table with such names is refused by MySQL and MariaDB ("Duplicate column name"), and a
 * condition on one of them is ambiguous on PostgreSQL. The statement becomes a CTE whose column list
 * names its columns by position, the outer SELECT gives them back their names, and a filter applies
 * to the first column of its field's name (as the dashboard picks it).
 */
function positional(dialect: SqlDialect, sql: string, columns: readonly string[]): { sql: string; column: (field: string) => string } {
  const names = columns.map((_, i) => `sextant_c${i + 1}`);
  const select = names.map((n, i) => `${ALIAS}.${n} AS ${quoteIdent(dialect, columns[i]!)}`).join(', ');
  return {
    sql: `WITH ${ALIAS} (${names.join(', ')}) AS (${body(sql)}) SELECT ${select} FROM ${ALIAS}`,
    column: (field) => {
      const i = columns.findIndex((c) => c.toLowerCase() === field.toLowerCase());
      if (i < 0) throw new Error(`A filter names ${field}, which is no column of the result`);
      return `${ALIAS}.${names[i]}`;
    },
  };
}

/**
 * The statement with the filters applied to its result, and the values to bind (unchanged, none, when
 * there are no filters). `columns`, the statement's own result column names in order, when known,
 * lets a result whose names collide be filtered too.
 */
export function filterResultSql(dialect: SqlDialect, sql: string, filters: ResultFilter[], columns?: readonly string[]): BoundStatement {
  const params: SqlParam[] = [];
  const bind = (p: SqlParam) => {
    params.push(p);
    return PLACEHOLDER[dialect](params.length, p);
  };
  const shape = columns && collide(columns) ? positional(dialect, sql, columns) : { sql: inner(sql), column: (field: string) => `${ALIAS}.${quoteIdent(dialect, field)}` };
  const where = filters.flatMap((f) => predicate(shape.column(f.field), f, bind));
  return where.length === 0 ? { sql, params: [] } : { sql: `${shape.sql} WHERE ${where.join(' AND ')}`, params };
}

/** A statement that returns the result's columns and no row: which fields a filter can apply to. */
export function resultColumnsSql(sql: string): string {
  return `${inner(sql)} WHERE 1 = 0`;
}
