// Governance work kept for the next caller of the same statement: a dashboard opened by many viewers
// sends the same saved SQL again and again. The guard's verdict depends only on the text, the
// dialect and the bound values; the rewritten statement only on the checked statement, the connection, the table docs of
// one knowledge snapshot, the warehouse relations, and the row filters as rendered for the caller. So
// the rewrite is kept under exactly those: two callers whose rendered filters differ in any table of
// the connection never get each other's statement. Refusals and failures are never kept.
import type { GuardedQuery } from '../guard/index.ts';
import { policyFor, type RlsUser } from '../rls/index.ts';
import type { WarehouseRelation } from '../sync/relations.ts';
import type { SqlDialect, SqlParam, TableDoc } from '../types.ts';

/** Statements kept per cache (guard verdicts; rewrites per knowledge snapshot). */
const KEPT = 500;

export interface RewriteKey {
  sql: string;
  dialect: SqlDialect;
  connectionId: string;
  defaultSchema: string;
  /** One knowledge snapshot's docs: the same array for every read of one commit. */
  docs: TableDoc[];
  relations: WarehouseRelation[];
  user: RlsUser;
}

/** Kept guard verdicts and rewrites; one per gateway, built by compose. */
export interface GovernMemo {
  /** The guard checks bound values too (count, type), so they are part of the verdict's key. */
  guard(sql: string, dialect: SqlDialect, rewritten: boolean, params: readonly SqlParam[], check: () => Promise<GuardedQuery>): Promise<GuardedQuery>;
  rewrite(key: RewriteKey, apply: () => Promise<string>): Promise<string>;
}

/** A bounded map of pending or settled results; a rejected one is forgotten at once. */
function keeper<T>() {
  const kept = new Map<string, Promise<T>>();
  return (key: string, make: () => Promise<T>): Promise<T> => {
    const hit = kept.get(key);
    if (hit) return hit;
    const made = make();
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, made);
    made.catch(() => kept.get(key) === made && kept.delete(key));
    return made;
  };
}

/** The row filters of the connection's tables as they apply to `user`, by table: the caller's row-security identity. */
function renderedFilters(k: RewriteKey): string {
  const out: [number, string][] = [];
  k.docs.forEach((d, i) => {
    if (d.connection !== k.connectionId || !d.row_filters?.length) return;
    let f: string | undefined;
    try {
      f = policyFor(d, k.user, k.dialect);
    } catch (err) {
      f = `\0${(err as Error).message}`;
    }
    if (f !== undefined) out.push([i, f]);
  });
  return JSON.stringify(out);
}

/** A fresh memo. */
export function governMemo(): GovernMemo {
  const verdicts = keeper<GuardedQuery>();
  const rewrites = new WeakMap<TableDoc[], ReturnType<typeof keeper<string>>>();
  return {
    guard: (sql, dialect, rewritten, params, check) => verdicts(JSON.stringify([dialect, rewritten, sql, params]), check),
    rewrite(k, apply) {
      let kept = rewrites.get(k.docs);
      if (!kept) rewrites.set(k.docs, (kept = keeper<string>()));
      return kept(JSON.stringify([k.dialect, k.connectionId, k.defaultSchema, k.sql, k.relations, renderedFilters(k)]), apply);
    },
  };
}
