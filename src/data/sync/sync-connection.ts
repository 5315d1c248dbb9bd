// Metadata sync: introspects a connection's schemas, tables, columns and types and hands them to
// the table documentation, which keeps what people wrote (descriptions, synonyms, row filters).
import type { Principal } from '../../auth/index.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { ConnectionNotFound } from '../errors.ts';
import type { SyncedTable } from '../types.ts';
import { withCoverage } from './refresh-coverage.ts';

export interface SyncResult {
  connection_id: string;
  schemas: string[];
  tables: number;
  columns: number;
}

/**
 * Syncs one connection into the table documentation of production or of an environment (whose
 * target, when it overrides this connection, is what gets introspected).
 */
export async function syncConnection(
  deps: DataDeps,
  principal: Principal,
  environmentId: string | undefined,
  { connectionType, connectionId, schemas }: { connectionType: string; connectionId: string; schemas?: string[] },
): Promise<SyncResult> {
  const target = environmentId ? (await deps.docs.targets(principal.orgId, environmentId))[connectionId] : undefined;
  const tables = await withCoverage(deps, principal, environmentId, connectionId, target ?? {}, await readTargetTables(deps, principal, connectionId, target ?? {}, { connectionType, schemas }));
  await deps.docs.writeSyncedTables(principal, environmentId, tables);
  return {
    connection_id: connectionId,
    schemas: [...new Set(tables.map((t) => t.schema))],
    tables: tables.length,
    columns: tables.reduce((n, t) => n + t.columns.length, 0),
  };
}

/**
 * Introspects a connection, or its target schema/database when one is given; tables of a target
 * are named with the production schema, under which their documentation is kept (rule 1 maps back).
 */
export async function readTargetTables(
  deps: DataDeps,
  principal: Principal,
  connectionId: string,
  target: { schema?: string; database?: string },
  { connectionType, schemas }: { connectionType?: string; schemas?: string[] } = {},
): Promise<SyncedTable[]> {
  const { driver, connection } = await openConnection(deps, principal.orgId, connectionId);
  try {
    // The type in the path must name this connection, so a URL cannot act on another kind by id.
    if (connectionType && connection.type !== connectionType && !(connectionType === 'postgres' && connection.type === 'postgresql')) throw new ConnectionNotFound();
    const targetSchema = target.schema ?? (driver.dialect === 'mysql' ? target.database : undefined);
    const introspected = await driver.introspect(targetSchema ? { schemas: [targetSchema] } : schemas ? { schemas } : {});
    return introspected.map((t) => ({ connection: connectionId, schema: targetSchema ? driver.defaultSchema : t.schema, name: t.name, columns: t.columns }));
  } finally {
    await driver.close();
  }
}
