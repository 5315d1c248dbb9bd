// Data coverage, measured by metadata sync: the first and last day with data of each documented table
// whose documentation names a coverage column (`coverage.column`, else its first metric's own time
// column). One MIN/MAX query per such table, over identifiers quoted for the dialect and checked
// against the introspected columns; nothing is measured for tables nobody documented that way.
import type { Principal } from '../../auth/index.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import type { Driver } from '../drivers/driver.ts';
import { quoteIdent } from '../guard/index.ts';
import type { WarehouseTable, TableDoc } from '../types.ts';

const TEMPORAL = /DATE|TIME/i;

/** The column a table's coverage is of, from its documentation. */
export function coverageColumn(doc: TableDoc | undefined): string | undefined {
  const own = doc?.metrics?.map((m) => m.time_column).find((c) => c !== undefined && !c.includes('.'));
  return doc?.coverage?.column ?? own;
}

/** The synced tables with `coverage` measured where the documentation asks for it. */
export async function withCoverage(
  deps: DataDeps,
  principal: Principal,
  environmentId: string | undefined,
  connectionId: string,
  target: { schema?: string; database?: string },
  tables: WarehouseTable[],
): Promise<WarehouseTable[]> {
  const docs = await deps.docs.listTables(principal.orgId, environmentId);
  const columnOf = (t: WarehouseTable) => {
    const doc = docs.find((d) => d.connection === connectionId && d.schema === t.schema && d.name === t.name);
    const name = coverageColumn(doc);
    return t.columns.find((c) => c.name === name && TEMPORAL.test(c.type))?.name;
  };
  if (!tables.some(columnOf)) return tables;
  const { driver } = await openConnection(deps, principal.orgId, connectionId);
  try {
    const schema = target.schema ?? (driver.dialect === 'mysql' ? target.database : undefined);
    const out: WarehouseTable[] = [];
    for (const t of tables) {
      const column = columnOf(t);
      const coverage = column ? await measure(driver, schema ?? t.schema, t.name, column) : undefined;
      out.push(coverage ? { ...t, coverage } : t);
    }
    return out;
  } finally {
    await driver.close();
  }
}

const day = (v: unknown) => /^\d{4}-\d{2}-\d{2}/.exec(v instanceof Date ? v.toISOString() : String(v ?? ''))?.[0];

/** First and last day of a column; undefined when the table is empty or the query fails (the documented dates stay). */
async function measure(driver: Driver, schema: string, table: string, column: string): Promise<{ first: string; last: string } | undefined> {
  const q = (s: string) => quoteIdent(driver.dialect, s);
  try {
    const { batches } = await driver.stream(`SELECT MIN(${q(column)}), MAX(${q(column)}) FROM ${q(schema)}.${q(table)}`);
    for await (const batch of batches) {
      const [first, last] = [day(batch[0]?.[0]), day(batch[0]?.[1])];
      return first && last ? { first, last } : undefined;
    }
  } catch {
    // A sync must not fail because one table could not be measured.
  }
  return undefined;
}
