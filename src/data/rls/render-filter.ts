// Row filters for one user: which filters apply, and their placeholders turned into quoted literals.
import { mysqlStringLiteral } from '../guard/mysql/mysql-text.ts';
import { pgStringLiteral } from '../guard/pg/pg-text.ts';
import { rowFilterTextProblem } from '../../sql-expression.ts';
import type { SqlDialect, TableDoc } from '../types.ts';
import { isReservedAttribute } from './attribute-rules.ts';
import type { RlsUser } from './user-attributes.ts';

const PLACEHOLDER = /\{\{\s*user\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * A string as a SQL literal that every server setting reads the same: MySQL's backslashes doubled
 * (with NO_BACKSLASH_ESCAPES they stay doubled, never closing the string), PostgreSQL's written as an
 * E'' string when there are any (so standard_conforming_strings off cannot turn `\'` into a quote).
 */
export function sqlLiteral(dialect: SqlDialect, value: string): string {
  const v = value.replace(/\0/g, '');
  if (dialect === 'postgresql') return pgStringLiteral(v);
  if (dialect === 'mysql') return mysqlStringLiteral(v);
  return `'${v.replace(/'/g, "''")}'`;
}

/**
 * The value of `{{user.<name>}}`: the reserved names (in any letter case) from the account itself,
 * never from an attribute, whatever is stored; every other name from the attributes.
 */
function valueOf(user: RlsUser, name: string): string | undefined {
  switch (name.toLowerCase()) {
    case 'id':
      return user.id;
    case 'email':
      return user.email;
    case 'role':
      return user.role;
    default:
      return isReservedAttribute(name) ? undefined : user.attributes[name];
  }
}

/**
 * Substitutes `{{user.*}}` placeholders; a missing value makes the whole filter FALSE (deny), and so
 * does a text that could reach past its own parentheses (rowFilterTextProblem in sql-expression.ts:
 * refused when written, but knowledge written before that check may hold one).
 */
export function renderFilter(filter: string, user: RlsUser, dialect: SqlDialect): string {
  if (rowFilterTextProblem(filter) !== undefined) return '1 = 0';
  let missing = false;
  const out = filter.replace(PLACEHOLDER, (_m, name: string) => {
    if (name.toLowerCase() === 'groups') {
      if (user.groups.length === 0) {
        missing = true;
        return 'NULL';
      }
      return `(${user.groups.map((g) => sqlLiteral(dialect, g)).join(', ')})`;
    }
    const value = valueOf(user, name);
    if (value === undefined) {
      missing = true;
      return 'NULL';
    }
    return sqlLiteral(dialect, value);
  });
  // A placeholder left unrecognized (odd spacing, other prefix) must not reach the warehouse as text.
  if (missing || /\{\{|\}\}/.test(out)) return '1 = 0';
  return out;
}

/** The ANDed filters of a table that apply to the user, or undefined when none does. */
export function policyFor(doc: TableDoc, user: RlsUser, dialect: SqlDialect): string | undefined {
  const applicable = (doc.row_filters ?? []).filter((f) => {
    if (f.exempt_roles?.includes(user.role)) return false;
    if (f.groups && f.groups.length > 0) return f.groups.some((g) => user.groups.includes(g));
    return true;
  });
  if (applicable.length === 0) return undefined;
  return applicable.map((f) => `(${renderFilter(f.filter, user, dialect)})`).join(' AND ');
}
