// The organization's data catalog for the CLI: what the service can do, which connections exist,
// and the most used tables from the query log. No model calls.
import { hasRole, type Principal } from '../../auth/index.ts';
import { listConnections } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { CONNECTION_TYPES, DRIVERS } from '../drivers/registry.ts';
import { topTables, type TableUsage } from '../query/index.ts';

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
  top_tables: (TableUsage & { description?: string })[];
}

/** Builds the catalog; non-admins see usage only of governed (documented, active) tables. */
export async function getCatalog(deps: DataDeps, principal: Principal, environmentId: string | undefined, limit = 50): Promise<Catalog> {
  const docs = await deps.docs.listTables(principal.orgId, hasRole(principal, 'modeler') ? environmentId : undefined);
  const active = docs.filter((d) => d.active !== false);
  const described = new Map(active.map((d) => [`${d.connection}\u0000${d.schema}.${d.name}`.toLowerCase(), d]));
  const isAdmin = principal.role === 'admin';
  const usage = topTables(deps.db, principal.orgId, isAdmin ? limit : limit * 4)
    .map((u) => ({ u, doc: described.get(`${u.connection_id}\u0000${u.table}`.toLowerCase()) }))
    .filter((x) => isAdmin || x.doc)
    .slice(0, limit)
    .map(({ u, doc }) => ({ ...u, ...(doc?.description ? { description: doc.description } : {}) }));
  return {
    org_id: principal.orgId,
    capabilities: {
      sql: isAdmin,
      connection_types: [...CONNECTION_TYPES],
      row_limit: deps.defaultRowLimit,
      row_level_security: true,
      environments: hasRole(principal, 'modeler'),
    },
    connections: listConnections(deps.db, principal.orgId).map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      dialect: DRIVERS[c.type].dialect,
      documented_tables: active.filter((d) => d.connection === c.id).length,
    })),
    top_tables: usage,
  };
}
