// The guard alone, for a statement kept to run later (a saved question): the connection is the
// organization's and the statement is one read-only statement in its dialect. Who may read which
// table, and the row filters, depend on who runs it and when: those are checked at each run.
import { getConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { DRIVERS } from '../drivers/registry.ts';
import { guardSql } from '../guard/index.ts';

/** Throws ConnectionNotFound for another organization's connection and QueryRefused for what the guard refuses. */
export async function checkStatement(deps: DataDeps, orgId: string, connectionId: string, sql: string): Promise<void> {
  const connection = await getConnection(deps, orgId, connectionId);
  await guardSql({ sql, dialect: DRIVERS[connection.type].dialect, tools: deps.tools });
}
