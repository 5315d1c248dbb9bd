// What depends on a warehouse connection, shown before an admin deletes it: the connection is the
// data plane's, the table documentation and saved reports that name it are knowledge's.
import type { Principal } from '../auth/index.ts';
import { getConnection } from '../data/connections/index.ts';
import type { DataDeps } from '../data/deps.ts';
import { listItems, readTableFiles, type KnowledgeDeps } from '../knowledge/index.ts';

export interface ConnectionDependants {
  connection_id: string;
  /** Documented tables of the connection in production, with the row filters each carries. */
  tables: { schema: string; name: string; row_filters: number }[];
  /** Saved reports whose SQL runs on the connection. */
  reports: { id: string; title: string }[];
  /** Row filters over all its tables. */
  row_filters: number;
}

/** The production knowledge that names a connection of the caller's organization; 404 for another's. */
export async function connectionDependants(s: { data: DataDeps; knowledge: KnowledgeDeps }, principal: Principal, connectionId: string): Promise<ConnectionDependants> {
  await getConnection(s.data, principal.orgId, connectionId);
  const tables = (await readTableFiles(s.knowledge, principal.orgId, undefined))
    .filter((t) => t.connection === connectionId)
    .map((t) => ({ schema: t.schema, name: t.name, row_filters: t.row_filters?.length ?? 0 }));
  const reports = (await listItems(s.knowledge, principal, undefined, 'reports')).items.flatMap((item) =>
    item.data?.['connection'] === connectionId ? [{ id: item.id, title: typeof item.data['title'] === 'string' ? item.data['title'] : item.id }] : [],
  );
  return { connection_id: connectionId, tables, reports, row_filters: tables.reduce((n, t) => n + t.row_filters, 0) };
}
