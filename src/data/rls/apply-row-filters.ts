// Row-level security by rewriting: every reference to a protected table (in subqueries, CTEs,
// joins, set operations, under any alias, quoting or qualification) becomes a filtered subquery.
import { rewriteTables, type GuardedQuery, type SqlTools, type TableRef } from '../guard/index.ts';
import type { TableDoc } from '../types.ts';
import { policyFor } from './render-filter.ts';
import type { RlsUser } from './user-attributes.ts';

export interface ApplyRowFiltersArgs {
  query: GuardedQuery;
  /** Table documentation of the environment (all connections; filtered here). */
  docs: TableDoc[];
  connectionId: string;
  user: RlsUser;
  /** Schema unqualified names resolve to on this connection. */
  defaultSchema: string;
  tools: SqlTools;
  /** Environment rule 1: the schema to read a production table from instead, when it exists there. */
  retarget?: (schema: string, name: string) => string | undefined;
}

/** Finds the documentation of a referenced table (case-insensitive, unqualified = default schema). */
export function docFor(docs: TableDoc[], connectionId: string, ref: TableRef, defaultSchema: string): TableDoc | undefined {
  const schema = (ref.schema ?? defaultSchema).toLowerCase();
  const name = ref.name.toLowerCase();
  return docs.find((d) => d.connection === connectionId && d.schema.toLowerCase() === schema && d.name.toLowerCase() === name);
}

/** Returns the SQL to run: row filters applied and environment targets resolved. */
export async function applyRowFilters(a: ApplyRowFiltersArgs): Promise<string> {
  return rewriteTables(
    a.query,
    (ref) => {
      const doc = docFor(a.docs, a.connectionId, ref, a.defaultSchema);
      const schema = doc?.schema ?? ref.schema ?? a.defaultSchema;
      const name = doc?.name ?? ref.name;
      const filter = doc ? policyFor(doc, a.user, a.query.dialect) : undefined;
      const target = a.retarget?.(schema, name);
      if (filter === undefined && target === undefined) return undefined;
      return { schema: target ?? schema, name, ...(filter !== undefined ? { filter } : {}) };
    },
    a.tools,
  );
}
