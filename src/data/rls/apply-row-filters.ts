// Row-level security by rewriting: every reference to a protected table (in subqueries, CTEs,
// joins, set operations, under any alias, quoting or qualification) becomes a filtered subquery.
// Views follow the data: a view over a table whose filter applies to the caller is refused, unless
// the view's own documentation carries a row filter that applies to the caller (the admin's decision
// of how the view is filtered).
import { QueryRefused } from '../errors.ts';
import { rewriteTables, type GuardedQuery, type SqlTools, type TableRef } from '../guard/index.ts';
import type { WarehouseRelation } from '../sync/relations.ts';
import type { TableDoc } from '../types.ts';
import { filteredSource, readsOthers, relationAt } from './filtered-sources.ts';
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
  /** What sync recorded about the connection's objects (views and what they read, primary keys). */
  relations?: WarehouseRelation[];
}

/** Finds the documentation of a referenced table (case-insensitive, unqualified = default schema). */
export function docFor(docs: TableDoc[], connectionId: string, ref: TableRef, defaultSchema: string): TableDoc | undefined {
  const schema = (ref.schema ?? defaultSchema).toLowerCase();
  const name = ref.name.toLowerCase();
  return docs.find((d) => d.connection === connectionId && d.schema.toLowerCase() === schema && d.name.toLowerCase() === name);
}

/**
 * A function defined in the warehouse (a SQL function, a macro, a stored function) can read any table,
 * and what it reads is not known: a user with a row filter on this connection may not call one.
 */
function checkWarehouseFunctions(a: ApplyRowFiltersArgs, relations: WarehouseRelation[], applies: (doc: TableDoc) => boolean): void {
  const defined = new Set(relations.filter((r) => r.kind === 'function').map((r) => r.name.toLowerCase()));
  const called = a.query.functions.find((f) => defined.has(f));
  if (called && a.docs.some((d) => d.connection === a.connectionId && applies(d))) {
    throw new QueryRefused('warehouse_function', `${called} is a function defined in the warehouse and may read rows your row filter hides; users with a row filter cannot call it`);
  }
}

/** Returns the SQL to run: generated from the checked tree, row filters applied, environment targets resolved. */
export async function applyRowFilters(a: ApplyRowFiltersArgs): Promise<string> {
  const relations = a.relations ?? [];
  const applies = (doc: TableDoc) => policyFor(doc, a.user, a.query.dialect) !== undefined;
  checkWarehouseFunctions(a, relations, applies);
  return rewriteTables(
    a.query,
    (ref) => {
      const doc = docFor(a.docs, a.connectionId, ref, a.defaultSchema);
      const schema = doc?.schema ?? ref.schema ?? a.defaultSchema;
      const name = doc?.name ?? ref.name;
      const filter = doc ? policyFor(doc, a.user, a.query.dialect) : undefined;
      const target = a.retarget?.(schema, name);
      const rel = relationAt(relations, target ?? schema, name);
      if (rel && readsOthers(rel) && filter === undefined) {
        const hidden = filteredSource(rel, relations, a.docs, a.connectionId, applies);
        if (hidden) {
          throw new QueryRefused(
            'view_over_filtered_table',
            `${schema}.${name} reads ${hidden}, whose row filter applies to you, and has no row filter of its own: query ${hidden} instead, or ask an admin to add a row filter to ${schema}.${name}`,
          );
        }
      }
      if (filter === undefined && target === undefined) return undefined;
      return { schema: target ?? schema, name, ...(filter !== undefined ? { filter, ...(rel?.primaryKey ? { primaryKey: rel.primaryKey } : {}) } : {}) };
    },
    a.tools,
  );
}
