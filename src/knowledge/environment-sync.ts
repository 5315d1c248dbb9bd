// sync_target: refresh an environment's table documentation from its dev targets. Only metadata is
// read there (through the data plane's TargetMetadataReader); credentials stay the connection's.
import type { Principal } from '../auth/index.ts';
import { Conflict } from '../errors.ts';
import type { KnowledgeDeps, SyncedTable } from './deps.ts';
import { TargetSyncUnavailable } from './errors.ts';
import { parseTargets } from './environments-store.ts';
import { environmentOf, requireEnvironmentRole } from './scope.ts';
import { writeSyncedTables } from './table-docs.ts';

/** Reads every targeted connection's dev schema and commits the documentation on the environment. */
export async function syncEnvironmentTargets(deps: KnowledgeDeps, p: Principal, id: string) {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  const targets = parseTargets(env);
  if (Object.keys(targets).length === 0) throw new Conflict('Set warehouse targets before syncing them', 'NO_TARGETS');
  const reader = deps.targetSync;
  if (!reader) throw new TargetSyncUnavailable();
  const tables: SyncedTable[] = [];
  for (const [connectionId, target] of Object.entries(targets)) {
    // Documentation keeps the connection it belongs to, whatever the reader reports.
    for (const t of await reader.readTarget(p, connectionId, target)) tables.push({ ...t, connection: connectionId });
  }
  await writeSyncedTables(deps, p, env.id, tables);
  return { connections: Object.keys(targets), tables: tables.map((t) => `${t.connection}/${t.schema}.${t.name}`) };
}
