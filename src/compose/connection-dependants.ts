// What depends on a warehouse connection, shown before an admin deletes it: the connection is the
// data plane's, the table documentation and saved reports that name it are knowledge's, the saved
// questions on it (and so the dashboard tiles and subscriptions that run them) are saved questions'.
import type { Principal } from '../auth/index.ts';
import { getConnection } from '../data/connections/index.ts';
import type { DataDeps } from '../data/deps.ts';
import { listItems, readTableFiles, type KnowledgeDeps } from '../knowledge/index.ts';
import { questionsOnConnection, type SavedDeps } from '../saved/index.ts';

export interface ConnectionDependants {
  connection_id: string;
  /** Documented tables of the connection in production, with the row filters each carries. */
  tables: { schema: string; name: string; row_filters: number }[];
  /** Saved reports whose SQL runs on the connection. */
  reports: { id: string; title: string }[];
  /** Row filters over all its tables. */
  row_filters: number;
  /** Saved questions on the connection that the organization sees (private ones are their owners': counted only). */
  saved_questions: { id: string; title: string }[];
  private_saved_questions: number;
}

/** The production knowledge that names a connection of the caller's organization; 404 for another's. */
export async function connectionDependants(s: { data: DataDeps; knowledge: KnowledgeDeps; saved: SavedDeps }, principal: Principal, connectionId: string): Promise<ConnectionDependants> {
  await getConnection(s.data, principal.orgId, connectionId);
  const tables = (await readTableFiles(s.knowledge, principal.orgId, undefined))
    .filter((t) => t.connection === connectionId)
    .map((t) => ({ schema: t.schema, name: t.name, row_filters: t.row_filters?.length ?? 0 }));
  const reports = (await listItems(s.knowledge, principal, undefined, 'reports')).items.flatMap((item) =>
    item.data?.['connection'] === connectionId ? [{ id: item.id, title: typeof item.data['title'] === 'string' ? item.data['title'] : item.id }] : [],
  );
  const questions = await questionsOnConnection(s.saved.store, principal.orgId, connectionId);
  return { connection_id: connectionId, tables, reports, row_filters: tables.reduce((n, t) => n + t.row_filters, 0), saved_questions: questions.shared, private_saved_questions: questions.private };
}
