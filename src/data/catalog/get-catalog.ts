// The organization's data catalog for the CLI and MCP clients: what the service can do, which
// connections exist, and every active documented table with its columns and governed metrics, the
// most used first (from the query log), so that a fresh installation shows its tables too. No model
// calls.
import { hasRole, type Principal } from '../../auth/index.ts';
import { listConnections } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { CONNECTION_TYPES, DRIVERS } from '../drivers/registry.ts';
import { topTables } from '../query/index.ts';
import type { DataCoverage, TableDoc, TableMetric } from '../types.ts';
import { changeOf, mapList, resorted, sortedIndex } from '../../shared/derived-list.ts';

export interface CatalogTable {
  connection_id: string;
  /** `schema.table`. */
  table: string;
  /** Successful queries that read it. */
  query_count: number;
  description?: string;
  columns: { name: string; type?: string; description?: string }[];
  metrics: TableMetric[];
  coverage?: DataCoverage;
}

export interface Catalog {
  org_id: string;
  capabilities: {
    sql: boolean;
    connection_types: string[];
    row_limit: number;
    row_level_security: boolean;
    environments: boolean;
  };
  connections: { id: string; name: string; type: string; dialect: string; documented_tables: number }[];
  /** At most `limit`, by usage, then by name; admins also see undocumented tables their queries read. */
  top_tables: CatalogTable[];
}

const keyOf = (connection: string, table: string) => `${connection}\u0000${table}`.toLowerCase();

/** Builds the catalog; non-admins see only governed (documented, active) tables. */
export async function getCatalog(deps: DataDeps, principal: Principal, environmentId: string | undefined, limit = 50): Promise<Catalog> {
  const docs = await deps.docs.listTables(principal.orgId, hasRole(principal, 'modeler') ? environmentId : undefined);
  const active = activeOf(docs);
  const isAdmin = principal.role === 'admin';
  return {
    org_id: principal.orgId,
    capabilities: {
      sql: isAdmin,
      connection_types: [...CONNECTION_TYPES],
      row_limit: deps.defaultRowLimit,
      row_level_security: true,
      environments: hasRole(principal, 'modeler'),
    },
    connections: (await listConnections(deps, principal.orgId)).map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      dialect: DRIVERS[c.type].dialect,
      documented_tables: active.documented.get(c.id) ?? 0,
    })),
    top_tables: await rankTables(deps, principal.orgId, active, isAdmin, limit),
  };
}

/** A documented table by the names the catalog shows and ranks it by. */
interface Named {
  connection_id: string;
  table: string;
  key: string;
  doc: TableDoc;
}

/** The active tables of a documentation snapshot, in name order and by key, counted per connection. */
interface ActiveTables {
  tables: Named[];
  /** In the catalog's order for unused tables (see byName). */
  byName: Named[];
  /** By key (plain string order), for the tables the query log names. */
  byKey: Named[];
  documented: Map<string, number>;
}

// Built once per snapshot (the docs source hands out the same array for one commit): naming and
// sorting 10,000 tables on every call was most of the catalog's time once the files were no longer
// read. A snapshot after a commit is the one before with the change applied (src/shared/derived-list.ts):
// its active tables, their orders and counts follow the change instead of being built from every table.
const activeOfDocs = new WeakMap<readonly TableDoc[], ActiveTables>();
const activeLists = new WeakMap<readonly TableDoc[], Named[]>();
// And once per table: the snapshot after a commit shares the unchanged tables of the one before.
const namedDocs = new WeakMap<TableDoc, Named>();

function named(d: TableDoc): Named | undefined {
  if (d.active === false) return undefined;
  let t = namedDocs.get(d);
  if (!t) namedDocs.set(d, (t = { connection_id: d.connection, table: `${d.schema}.${d.name}`, key: keyOf(d.connection, `${d.schema}.${d.name}`), doc: d }));
  return t;
}

function activeOf(docs: readonly TableDoc[], depth = 0): ActiveTables {
  let active = activeOfDocs.get(docs);
  if (active) return active;
  const tables = mapList(docs, activeLists, named);
  const change = changeOf(tables);
  const baseDocs = changeOf(docs)?.base;
  // A snapshot read before without its catalog is built first, itself from the one before it.
  const before = baseDocs && (activeOfDocs.get(baseDocs) ?? (depth < 16 ? activeOf(baseDocs, depth + 1) : undefined));
  if (change && before && before.tables === change.base) {
    const documented = new Map(before.documented);
    for (const t of change.removed) documented.set(t.connection_id, documented.get(t.connection_id)! - 1);
    for (const t of change.added) documented.set(t.connection_id, (documented.get(t.connection_id) ?? 0) + 1);
    for (const [c, n] of documented) if (n === 0) documented.delete(c);
    active = { tables, byName: resorted(before.byName, byName, change.removed, change.added), byKey: resorted(before.byKey, byKey, change.removed, change.added), documented };
  } else {
    const documented = new Map<string, number>();
    for (const t of tables) documented.set(t.connection_id, (documented.get(t.connection_id) ?? 0) + 1);
    active = { tables, byName: [...tables].sort(byName), byKey: [...tables].sort(byKey), documented };
  }
  activeOfDocs.set(docs, active);
  return active;
}

/** The catalog's order by name: connection, then table, in the locale's order, then by code units so that no two differ only by chance. */
function byName(a: { connection_id: string; table: string; doc?: TableDoc }, b: { connection_id: string; table: string; doc?: TableDoc }): number {
  return a.connection_id.localeCompare(b.connection_id) || a.table.localeCompare(b.table) || codeUnits(a.connection_id, b.connection_id) || codeUnits(a.table, b.table) || codeUnits(a.doc?.schema ?? '', b.doc?.schema ?? '');
}

const byKey = (a: Named, b: Named) => codeUnits(a.key, b.key);
const codeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The documented tables with `key` (names can differ in case only). */
function withKey(active: ActiveTables, key: string): Named[] {
  const out: Named[] = [];
  for (let i = sortedIndex(active.byKey, { key } as Named, (a, b) => (a.key < b.key ? -1 : 1)); active.byKey[i]?.key === key; i++) out.push(active.byKey[i]!);
  return out;
}

/**
 * The `limit` first tables by usage, then by name. Only the used ones are sorted: the rest come in
 * the name order kept per snapshot, so a call costs the query log's rows and the page, not a sort of
 * every documented table.
 */
async function rankTables(deps: DataDeps, orgId: string, active: ActiveTables, isAdmin: boolean, limit: number): Promise<CatalogTable[]> {
  const usage = new Map((await topTables(deps.store, orgId, active.tables.length + limit)).map((u) => [keyOf(u.connection_id, u.table), u]));
  const used: Ranked[] = [];
  const shown = new Set<Named>();
  for (const [key, u] of usage) {
    const documented = withKey(active, key);
    for (const t of documented) {
      used.push({ connection_id: t.connection_id, table: t.table, query_count: u.query_count, doc: t.doc });
      shown.add(t);
    }
    // Admins query with raw SQL: their most used tables show even when nobody documented them.
    if (documented.length === 0 && isAdmin) used.push({ connection_id: u.connection_id, table: u.table, query_count: u.query_count });
  }
  const ranked = used.sort((a, b) => b.query_count - a.query_count || byName(a, b)).slice(0, limit);
  for (let i = 0; ranked.length < limit && i < active.byName.length; i++) {
    const t = active.byName[i]!;
    if (!shown.has(t)) ranked.push({ connection_id: t.connection_id, table: t.table, query_count: 0, doc: t.doc });
  }
  return ranked.map(({ doc, ...r }) => (doc ? { ...entryOf(doc), query_count: r.query_count } : { ...r, columns: [], metrics: [] }));
}

interface Ranked {
  connection_id: string;
  table: string;
  query_count: number;
  doc?: TableDoc;
}

function entryOf(d: TableDoc): Omit<CatalogTable, 'query_count'> {
  return {
    connection_id: d.connection,
    table: `${d.schema}.${d.name}`,
    ...(d.description ? { description: d.description } : {}),
    columns: (d.columns ?? []).map((c) => ({ name: c.name, ...(c.type ? { type: c.type } : {}), ...(c.description ? { description: c.description } : {}) })),
    metrics: d.metrics ?? [],
    ...(d.coverage ? { coverage: d.coverage } : {}),
  };
}
