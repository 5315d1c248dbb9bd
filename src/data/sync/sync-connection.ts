// Metadata sync: introspects a connection's schemas, tables, columns and types and hands them to
// the table documentation, which keeps what people wrote (descriptions, synonyms, row filters).
import type { Principal } from '../../auth/index.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { ConnectionNotFound } from '../errors.ts';
import type { SyncedTable } from '../types.ts';

export interface SyncResult {
  connection_id: string;
  schemas: string[];
  tables: number;
  columns: number;
}

/**
 * Syncs one connection. In an environment whose target overrides this connection's schema, the
 * target schema is introspected and documented under the production schema name (rule 1 maps it back).
 */
export async function syncConnection(
  deps: DataDeps,
  principal: Principal,
  environmentId: string | undefined,
  { connectionType, connectionId, schemas }: { connectionType: string; connectionId: string; schemas?: string[] },
): Promise<SyncResult> {
  const { driver, connection } = await openConnection(deps, principal.orgId, connectionId);
  try {
    // The type in the path must name this connection, so a URL cannot act on another kind by id.
    if (connection.type !== connectionType && !(connectionType === 'postgres' && connection.type === 'postgresql')) throw new ConnectionNotFound();
    const target = environmentId ? (await deps.docs.targets(principal.orgId, environmentId))[connectionId] : undefined;
    const targetSchema = target?.schema ?? (driver.dialect === 'mysql' ? target?.database : undefined);
    const introspected = await driver.introspect(targetSchema ? { schemas: [targetSchema] } : schemas ? { schemas } : {});
    const tables: SyncedTable[] = introspected.map((t) => ({
      connection: connectionId,
      schema: targetSchema ? driver.defaultSchema : t.schema,
      name: t.name,
      columns: t.columns,
    }));
    await deps.docs.writeSyncedTables(principal, environmentId, tables);
    return {
      connection_id: connectionId,
      schemas: [...new Set(tables.map((t) => t.schema))],
      tables: tables.length,
      columns: tables.reduce((n, t) => n + t.columns.length, 0),
    };
  } finally {
    await driver.close();
  }
}
