// The import domain's WarehousePort, answered by the data plane: the relations a connection has.
import { openConnection } from '../data/index.ts';
import type { DataDeps } from '../data/deps.ts';
import type { WarehousePort } from '../imports/dbt/index.ts';

/** Introspects the connection (404 for another organization's) for its dialect and relations. */
export function importWarehousePort(data: DataDeps): WarehousePort {
  return {
    relationsOf: async (principal, connectionId) => {
      const { driver } = await openConnection(data, principal.orgId, connectionId);
      try {
        const tables = await driver.introspect();
        return { dialect: driver.dialect, relations: tables.map((t) => ({ schema: t.schema, name: t.name, columns: t.columns.map((c) => ({ name: c.name, type: c.type })) })) };
      } finally {
        await driver.close();
      }
    },
  };
}
