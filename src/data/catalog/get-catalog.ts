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

/** The active tables of a documentation snapshot, named and counted per connection. */
interface ActiveTables {
  tables: { connection_id: string; table: string; key: string; doc: TableDoc }[];
  keys: Set<string>;
  documented: Map<string, number>;
}

// Built once per snapshot (the docs source hands out the same array for one commit): naming 10,000
// tables on every call was most of the catalog's time once the files were no longer read.
const activeOfDocs = new WeakMap<TableDoc[], ActiveTables>();
// And once per table: the snapshot after a commit shares the unchanged tables of the one before.
const namedDocs = new WeakMap<TableDoc, ActiveTables['tables'][number]>();

function named(d: TableDoc): ActiveTables['tables'][number] {
  let t = namedDocs.get(d);
  if (!t) namedDocs.set(d, (t = { connection_id: d.connection, table: `${d.schema}.${d.name}`, key: keyOf(d.connection, `${d.schema}.${d.name}`), doc: d }));
  return t;
}

function activeOf(docs: TableDoc[]): ActiveTables {
  let active = activeOfDocs.get(docs);
  if (!active) {
    const tables = docs.filter((d) => d.active !== false).map(named);
    const documented = new Map<string, number>();
    for (const t of tables) documented.set(t.connection_id, (documented.get(t.connection_id) ?? 0) + 1);
    activeOfDocs.set(docs, (active = { tables, keys: new Set(tables.map((t) => t.key)), documented }));
  }
  return active;
}

async function rankTables(deps: DataDeps, orgId: string, active: ActiveTables, isAdmin: boolean, limit: number): Promise<CatalogTable[]> {
  const usage = new Map((await topTables(deps.store, orgId, active.tables.length + limit)).map((u) => [keyOf(u.connection_id, u.table), u]));
  // Ranked on the names and counts alone; only the tables shown are built.
  const ranked: Ranked[] = active.tables.map(({ connection_id, table, key, doc }) => ({ connection_id, table, query_count: usage.get(key)?.query_count ?? 0, doc }));
  // Admins query with raw SQL: their most used tables show even when nobody documented them.
  if (isAdmin) {
    for (const [key, u] of usage) if (!active.keys.has(key)) ranked.push({ connection_id: u.connection_id, table: u.table, query_count: u.query_count });
  }
  return ranked
    .sort((a, b) => b.query_count - a.query_count || a.connection_id.localeCompare(b.connection_id) || a.table.localeCompare(b.table))
    .slice(0, limit)
    .map(({ doc, ...r }) => (doc ? { ...entryOf(doc), query_count: r.query_count } : { ...r, columns: [], metrics: [] }));
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
