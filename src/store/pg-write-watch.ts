// Which statements of the PostgreSQL executor may have written a watched table, read from the
// compiled SQL. Conservative: a statement that names a watched table and is not a plain SELECT counts,
// unless it is provably an INSERT the watch ignores or an UPDATE setting only columns it ignores.
import type { WatchedTables } from './executor.ts';

// Compiled once per table: every statement of a watched executor is tested against them.
interface TablePatterns {
  named: RegExp;
  insert: RegExp;
  update: RegExp;
}
const compiled = new Map<string, TablePatterns>();

function patternsOf(table: string): TablePatterns {
  let p = compiled.get(table);
  if (!p) {
    p = {
      named: new RegExp(`(^|[^\\w$])${table}([^\\w$]|$)`),
      insert: new RegExp(`^insert\\s+into\\s+${table}\\s`),
      update: new RegExp(`^update\\s+${table}(\\s+(as\\s+)?\\w+)?\\s+set\\s+(.*?)\\s+(where|returning|from)\\s`),
    };
    compiled.set(table, p);
  }
  return p;
}

/** True when `sql` may have changed a row the watch cares about. */
export function mayWrite(sql: string, tables: WatchedTables): boolean {
  const text = sql.toLowerCase().replace(/"/g, '').trim();
  if (/^select\s/.test(text) && !/\bfor\s+(no\s+key\s+)?update\b/.test(text)) return false;
  return Object.entries(tables).some(([table, on]) => patternsOf(table).named.test(text) && !ignorable(text, patternsOf(table), on));
}

function ignorable(text: string, patterns: TablePatterns, on: WatchedTables[string]): boolean {
  const insert = patterns.insert.test(text);
  if (insert) return !on.insert && !/\bon\s+conflict\b[^;]*\bdo\s+update\b/.test(text);
  if (on.update === true) return false;
  const update = patterns.update.exec(text + ' ');
  // A SET list with parentheses may hide a subquery whose WHERE ended the match early.
  if (!update || update[3]!.includes('(')) return false;
  // Every `name =` in the SET list (a few more, from expressions, only make this more careful).
  const assigned = [...update[3]!.matchAll(/(\w+)\s*=/g)].map((m) => m[1]!);
  return !assigned.some((column) => (on.update as readonly string[]).includes(column));
}
