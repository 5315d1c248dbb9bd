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
  const active = docs.filter((d) => d.active !== false);
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
      documented_tables: active.filter((d) => d.connection === c.id).length,
    })),
    top_tables: await rankTables(deps, principal.orgId, active, isAdmin, limit),
  };
}

async function rankTables(deps: DataDeps, orgId: string, active: TableDoc[], isAdmin: boolean, limit: number): Promise<CatalogTable[]> {
  const described = new Map(active.map((d) => [keyOf(d.connection, `${d.schema}.${d.name}`), d]));
  const usage = new Map((await topTables(deps.store, orgId, active.length + limit)).map((u) => [keyOf(u.connection_id, u.table), u]));
  const tables: CatalogTable[] = active.map((d) => ({ ...entryOf(d), query_count: usage.get(keyOf(d.connection, `${d.schema}.${d.name}`))?.query_count ?? 0 }));
  // Admins query with raw SQL: their most used tables show even when nobody documented them.
  if (isAdmin) {
    for (const [key, u] of usage) if (!described.has(key)) tables.push({ connection_id: u.connection_id, table: u.table, query_count: u.query_count, columns: [], metrics: [] });
  }
  return tables.sort((a, b) => b.query_count - a.query_count || a.connection_id.localeCompare(b.connection_id) || a.table.localeCompare(b.table)).slice(0, limit);
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
