// Governance of one statement, with or without an open warehouse session: guard -> governed-source
// check -> row-level security and environment targets. What it needs of the warehouse is its dialect
// and default schema, and (only where an environment names a target schema) a listing of that schema;
// so a statement whose connection is known can be governed before a query process is taken for it.
import type { Principal } from '../../auth/index.ts';
import type { DataDeps } from '../deps.ts';
import type { IntrospectedTable } from '../drivers/driver.ts';
import { QueryRefused, RowFilterRefused, type RefusalReason } from '../errors.ts';
import { guardSql, type GuardedQuery } from '../guard/index.ts';
import { applyRowFilters, docFor, type RlsUser } from '../rls/index.ts';
import { withProductionFilters } from '../rls/production-filters.ts';
import type { EnvironmentTargets, SqlDialect, SqlParam, TableDoc } from '../types.ts';
import type { GovernMemo } from './govern-memo.ts';
import { directReads, type RequestReads } from './request-reads.ts';

/** What governance needs of the warehouse: an open driver has all of it. */
export interface WarehouseShape {
  dialect: SqlDialect;
  defaultSchema: string;
  /** Absent before a session is open: a statement whose environment retargets it then waits for one. */
  introspect?: (opts: { schemas?: string[] }) => Promise<IntrospectedTable[]>;
}

export interface GovernInput {
  principal: Principal;
  /** Already narrowed to what the principal may see (regular users: production). */
  environmentId: string | undefined;
  connectionId: string;
  sql: string;
  /** Values bound to the caller's own placeholders (a dashboard's filters); the guard checks them. */
  params?: readonly SqlParam[] | undefined;
  knowledgeCommit?: string | undefined;
  /** The request's reads, shared by its queries. */
  reads?: RequestReads | undefined;
}

/** Admins read any table; everyone else only documented, active tables (governed sources). */
function checkGoverned(principal: Principal, query: GuardedQuery, docs: TableDoc[], connectionId: string, defaultSchema: string): void {
  if (principal.role === 'admin') return;
  for (const ref of query.tables) {
    const doc = docFor(docs, connectionId, ref, defaultSchema);
    if (!doc || doc.active === false) {
      const name = [ref.schema, ref.name].filter(Boolean).join('.');
      throw new QueryRefused('ungoverned_table', `Table ${name} is not a governed source (documented and active); query documented tables only`);
    }
  }
}

async function targetResolver(wh: WarehouseShape, schema: string) {
  const present = new Set((await wh.introspect!({ schemas: [schema] })).map((x) => x.name.toLowerCase()));
  // Rule 1: a production table that exists in the environment's target schema is read from there.
  return (s: string, name: string) => (s.toLowerCase() === wh.defaultSchema.toLowerCase() && present.has(name.toLowerCase()) ? schema : undefined);
}

/** The schema an environment reads this connection's production tables from instead, if any. */
function targetSchema(wh: WarehouseShape, t: EnvironmentTargets[string] | undefined): string | undefined {
  return t?.schema ?? (wh.dialect === 'mysql' ? t?.database : undefined);
}

/** Rewrites with row filters and targets; without a retarget the result is the memo's to keep. */
async function rewrite(deps: DataDeps, a: { query: GuardedQuery; docs: TableDoc[]; input: GovernInput; wh: WarehouseShape; user: RlsUser; retarget: ((s: string, n: string) => string | undefined) | undefined; memo: GovernMemo | undefined }) {
  const { query, docs, input, wh, user, retarget } = a;
  const relations = await (input.reads ?? directReads).relations(deps.store, input.principal.orgId, input.connectionId);
  const apply = () => applyRowFilters({ query, docs, connectionId: input.connectionId, user, defaultSchema: wh.defaultSchema, tools: deps.tools, relations, ...(retarget ? { retarget } : {}) });
  if (!a.memo || retarget) return apply();
  return a.memo.rewrite({ sql: input.sql, dialect: wh.dialect, connectionId: input.connectionId, defaultSchema: wh.defaultSchema, docs, relations, user }, apply);
}

/** Refusals row security makes itself, about what the statement names: their messages quote nothing else. */
const OWN_REFUSALS = new Set<RefusalReason>(['view_over_filtered_table', 'warehouse_function']);

/** A refusal while rewriting with row filters, or of the rewritten statement, told without its text (RowFilterRefused says why). */
function refusedAsRewritten(err: unknown): never {
  throw err instanceof QueryRefused && !OWN_REFUSALS.has(err.reason) ? new RowFilterRefused(err) : err;
}

/**
 * The statement `input.principal` may run and the tables it reads (`seen.tables` is set as soon as
 * they are known, for the log of a refusal), or undefined when the environment retargets the
 * connection and `wh` cannot list a schema yet. Refusals throw QueryRefused.
 */
export async function governSql(deps: DataDeps, input: GovernInput, wh: WarehouseShape, seen: { tables: string[] }, memo?: GovernMemo): Promise<string | undefined> {
  const { principal, connectionId } = input;
  const params = input.params ?? [];
  const check = (sql: string, rewritten: boolean) => () => guardSql({ sql, dialect: wh.dialect, tools: deps.tools, params, ...(rewritten ? { rewritten } : {}) });
  const guard = (sql: string, rewritten = false) => (memo ? memo.guard(sql, wh.dialect, rewritten, params, check(sql, rewritten)) : check(sql, rewritten)());
  const query = await guard(input.sql);
  // One read of the knowledge per query (per request, for the queries of one request), at the pinned commit when there is one.
  const reads = input.reads ?? directReads;
  const knowledge = await reads.governance(deps.docs, principal.orgId, input.environmentId, input.knowledgeCommit);
  // An environment's knowledge is a draft: production's row filters apply too (rls/production-filters.ts).
  // A run pinned to a production commit keeps that commit's filters, so its queries agree with each other.
  const docs = input.environmentId !== undefined ? withProductionFilters(knowledge.tables, (await reads.governance(deps.docs, principal.orgId, undefined, undefined)).tables) : knowledge.tables;
  seen.tables = query.tables.map((r) => {
    const d = docFor(docs, connectionId, r, wh.defaultSchema);
    return d ? `${d.schema}.${d.name}` : `${r.schema ?? wh.defaultSchema}.${r.name}`;
  });
  checkGoverned(principal, query, docs, connectionId, wh.defaultSchema);
  const schema = targetSchema(wh, knowledge.targets[connectionId]);
  if (schema && !wh.introspect) return undefined;
  const user = await reads.rlsUser(deps.store, principal.orgId, { id: principal.userId, email: principal.email, role: principal.role });
  const retarget = schema ? await targetResolver(wh, schema) : undefined;
  const executedSql = await rewrite(deps, { query, docs, input, wh, user, retarget, memo }).catch(refusedAsRewritten);
  // Filters are written by admins, but the statement that runs passes the guard too, with the same
  // values: a placeholder in a filter, or one the rewrite lost or moved, is refused.
  if (executedSql !== input.sql) await guard(executedSql, true).catch(refusedAsRewritten);
  return executedSql;
}
