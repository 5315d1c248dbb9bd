// An in-memory TableDocsSource: the twin used by tests and until the git-backed one is wired.
import type { Principal } from '../auth/index.ts';
import type { EnvironmentTargets, WarehouseTable, TableDoc, TableDocsSource } from './types.ts';

export interface MemoryTableDocs extends TableDocsSource {
  /** Replaces the table docs of an organization at an environment (undefined = production). */
  setTables(orgId: string, environmentId: string | undefined, docs: TableDoc[]): void;
  setTargets(orgId: string, environmentId: string | undefined, targets: EnvironmentTargets): void;
}

const key = (orgId: string, env: string | undefined) => `${orgId}\u0000${env ?? ''}`;

/** Creates an empty in-memory source; synced tables merge into existing docs, keeping written fields. */
export function createMemoryTableDocs(): MemoryTableDocs {
  const tables = new Map<string, TableDoc[]>();
  const targets = new Map<string, EnvironmentTargets>();
  return {
    async listTables(orgId, env) {
      return structuredClone(tables.get(key(orgId, env)) ?? (env ? (tables.get(key(orgId, undefined)) ?? []) : []));
    },
    async targets(orgId, env) {
      return structuredClone(targets.get(key(orgId, env)) ?? {});
    },
    async governance(orgId, env) {
      // Memory docs have no history: every commit reads the current docs.
      return { commit: undefined, tables: await this.listTables(orgId, env), targets: await this.targets(orgId, env) };
    },
    async writeSyncedTables(principal: Principal, env, synced: WarehouseTable[]) {
      const k = key(principal.orgId, env);
      const docs = tables.get(k) ?? structuredClone(env ? (tables.get(key(principal.orgId, undefined)) ?? []) : []);
      for (const s of synced) {
        const old = docs.find((d) => d.connection === s.connection && d.schema === s.schema && d.name === s.name);
        const columns = s.columns.map((c) => ({ ...old?.columns?.find((o) => o.name === c.name), name: c.name, type: c.type }));
        if (old) {
          old.columns = columns;
          if (s.coverage) old.coverage = { ...old.coverage, ...s.coverage };
        } else docs.push({ connection: s.connection, schema: s.schema, name: s.name, active: true, columns });
      }
      tables.set(k, docs);
    },
    setTables(orgId, env, docs) {
      tables.set(key(orgId, env), structuredClone(docs));
    },
    setTargets(orgId, env, t) {
      targets.set(key(orgId, env), structuredClone(t));
    },
  };
}
