// A saved statement narrowed by a dashboard's filters. Neither the guard nor any driver binds
// parameters (the guard refuses `$1`, `?`, `:name`), so filter values become literals written by the
// same quoting that writes row-filter values (sqlLiteral), identifiers by quoteIdent, in one fixed
// shape around the statement: `SELECT * FROM (<statement>) AS sextant_tile WHERE ...`. The result is
// an ordinary statement for the governed path: the guard parses the whole of it (so a value that
// broke out of its literal would be refused or stay inert, and what runs is text regenerated from the
// checked tree), and row security rewrites the base tables inside the subquery as in any query.
import { quoteIdent } from '../guard/index.ts';
import { sqlLiteral } from '../rls/index.ts';
import type { SqlDialect } from '../types.ts';

/** One filter on a result column: a date range (`before` exclusive) or values to keep. */
export interface ResultFilter {
  field: string;
  from?: string | undefined;
  before?: string | undefined;
  values?: (string | number)[] | undefined;
}

const ALIAS = 'sextant_tile';

/** The statement without trailing semicolons; the newline keeps a trailing `--` comment off the wrapper. */
const inner = (sql: string) => `SELECT * FROM (\n${sql.replace(/[\s;]+$/, '')}\n) AS ${ALIAS}`;

function literal(dialect: SqlDialect, v: string | number): string {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('A filter value must be a finite number');
    return String(v);
  }
  return sqlLiteral(dialect, v);
}

function predicate(dialect: SqlDialect, f: ResultFilter): string[] {
  const col = `${ALIAS}.${quoteIdent(dialect, f.field)}`;
  const out: string[] = [];
  if (f.from) out.push(`${col} >= ${sqlLiteral(dialect, f.from)}`);
  if (f.before) out.push(`${col} < ${sqlLiteral(dialect, f.before)}`);
  if (f.values && f.values.length > 0) out.push(`${col} IN (${f.values.map((v) => literal(dialect, v)).join(', ')})`);
  return out;
}

/** The statement with the filters applied to its result (unchanged when there are none). */
export function filterResultSql(dialect: SqlDialect, sql: string, filters: ResultFilter[]): string {
  const where = filters.flatMap((f) => predicate(dialect, f));
  return where.length === 0 ? sql : `${inner(sql)} WHERE ${where.join(' AND ')}`;
}

/** A statement that returns the result's columns and no row: which fields a filter can apply to. */
export function resultColumnsSql(sql: string): string {
  return `${inner(sql)} WHERE 1 = 0`;
}
