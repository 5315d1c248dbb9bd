// Reads a warehouse's relations for row security: kind, what views and partitions read (PostgreSQL's
// pg_depend and pg_inherits; MySQL's view definitions; DuckDB's and SQLite's view SQL), primary
// keys, and the functions defined in the warehouse (SQLite keeps none). Catalog queries run through the driver's read-only session, never through the guard.
import type { Driver } from '../drivers/driver.ts';
import type { SqlTools } from '../guard/index.ts';
import type { RelationKind, WarehouseRelation } from './relations.ts';
import { viewQuery, viewSources } from './view-sources.ts';

async function rows(driver: Driver, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const b of (await driver.stream(sql)).batches) out.push(...b);
  return out;
}

const json = <T>(v: unknown): T | undefined => (v === null || v === undefined ? undefined : ((typeof v === 'string' ? JSON.parse(v) : v) as T));
const PG_KINDS: Record<string, RelationKind> = { r: 'table', p: 'table', f: 'table', v: 'view', m: 'materialized_view' };

async function postgres(driver: Driver): Promise<WarehouseRelation[]> {
  const found = await rows(
    driver,
    `SELECT n.nspname, c.relname, c.relkind::text,
       (SELECT json_agg(json_build_array(dn.nspname, dc.relname)) FROM
          (SELECT DISTINCT d.refobjid FROM pg_rewrite r JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
             AND d.refclassid = 'pg_class'::regclass WHERE r.ev_class = c.oid AND d.refobjid <> c.oid) x
          JOIN pg_class dc ON dc.oid = x.refobjid JOIN pg_namespace dn ON dn.oid = dc.relnamespace WHERE dc.relkind IN ('r', 'p', 'v', 'm', 'f')),
       (SELECT json_build_array(pn.nspname, pc.relname) FROM pg_inherits i JOIN pg_class pc ON pc.oid = i.inhparent
          JOIN pg_namespace pn ON pn.oid = pc.relnamespace WHERE i.inhrelid = c.oid LIMIT 1),
       (SELECT json_agg(a.attname ORDER BY k.ord) FROM pg_constraint con CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
          JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum WHERE con.conrelid = c.oid AND con.contype = 'p')
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`,
  );
  const relations = found.map(([schema, name, kind, reads, parent, pk]): WarehouseRelation => {
    const parentOf = json<[string, string]>(parent);
    const base = { schema: String(schema), name: String(name), ...(json<string[]>(pk) ? { primaryKey: json<string[]>(pk)! } : {}) };
    if (parentOf) return { ...base, kind: 'partition' as const, reads: [{ schema: parentOf[0], name: parentOf[1] }] };
    const k = PG_KINDS[String(kind)] ?? 'table';
    return k === 'table' ? { ...base, kind: k } : { ...base, kind: k, reads: (json<[string, string][]>(reads) ?? []).map(([s, n]) => ({ schema: s, name: n })) };
  });
  return [...relations, ...functionsOf(await rows(driver, PG_FUNCTIONS))];
}

// Functions defined in the warehouse, not by an extension, and not shadowing a built-in name.
const PG_FUNCTIONS = `SELECT DISTINCT n.nspname, p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
    AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    AND NOT EXISTS (SELECT 1 FROM pg_proc b WHERE b.pronamespace = 'pg_catalog'::regnamespace AND b.proname = p.proname)`;

const functionsOf = (list: unknown[][]): WarehouseRelation[] => list.map(([schema, name]) => ({ schema: String(schema), name: String(name), kind: 'function' }));

async function mysql(driver: Driver, tools: SqlTools): Promise<WarehouseRelation[]> {
  const skip = "('mysql', 'information_schema', 'performance_schema', 'sys')";
  const tables = await rows(driver, `SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ${skip}`);
  const views = new Map((await rows(driver, `SELECT TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA NOT IN ${skip}`)).map((r) => [`${r[0]}.${r[1]}`, String(r[2] ?? '')]));
  const keys = await rows(driver, `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE CONSTRAINT_NAME = 'PRIMARY' AND TABLE_SCHEMA NOT IN ${skip} ORDER BY ORDINAL_POSITION`);
  const out: WarehouseRelation[] = [];
  for (const [schema, name, type] of tables) {
    const key = `${schema}.${name}`;
    const pk = keys.filter((k) => `${k[0]}.${k[1]}` === key).map((k) => String(k[2]));
    if (String(type) === 'VIEW') {
      const reads = await viewSources('mysql', views.get(key), tools);
      out.push({ schema: String(schema), name: String(name), kind: 'view', ...(reads ? { reads } : {}) });
    } else out.push({ schema: String(schema), name: String(name), kind: 'table', ...(pk.length ? { primaryKey: pk } : {}) });
  }
  const routines = await rows(driver, `SELECT ROUTINE_SCHEMA, ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_TYPE = 'FUNCTION' AND ROUTINE_SCHEMA NOT IN ${skip}`);
  return out.concat(functionsOf(routines));
}

async function duckdb(driver: Driver, tools: SqlTools): Promise<WarehouseRelation[]> {
  const here = 'database_name = current_database()';
  const tables = await rows(driver, `SELECT schema_name, table_name FROM duckdb_tables() WHERE ${here} AND NOT internal`);
  const keys = await rows(driver, `SELECT schema_name, table_name, constraint_column_names FROM duckdb_constraints() WHERE ${here} AND constraint_type = 'PRIMARY KEY'`);
  const views = await rows(driver, `SELECT schema_name, view_name, sql FROM duckdb_views() WHERE ${here} AND NOT internal`);
  const out: WarehouseRelation[] = tables.map(([schema, name]) => {
    const pk = keys.find((k) => k[0] === schema && k[1] === name)?.[2] as string[] | undefined;
    return { schema: String(schema), name: String(name), kind: 'table', ...(pk?.length ? { primaryKey: pk.map(String) } : {}) };
  });
  for (const [schema, name, sql] of views) {
    const reads = await viewSources('duckdb', viewQuery(String(sql)), tools);
    out.push({ schema: String(schema), name: String(name), kind: 'view', ...(reads ? { reads } : {}) });
  }
  return out.concat(functionsOf(await rows(driver, `SELECT DISTINCT schema_name, function_name FROM duckdb_functions() WHERE ${here} AND NOT internal`)));
}

async function sqlite(driver: Driver, tools: SqlTools): Promise<WarehouseRelation[]> {
  const objects = await rows(driver, "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
  const out: WarehouseRelation[] = [];
  for (const [type, name, sql] of objects) {
    if (type === 'view') {
      const reads = await viewSources('sqlite', viewQuery(String(sql)), tools);
      out.push({ schema: 'main', name: String(name), kind: 'view', ...(reads ? { reads } : {}) });
      continue;
    }
    const pk = (await rows(driver, `SELECT name FROM pragma_table_info('${String(name).replaceAll("'", "''")}') WHERE pk > 0 ORDER BY pk`)).map((r) => String(r[0]));
    out.push({ schema: 'main', name: String(name), kind: 'table', ...(pk.length ? { primaryKey: pk } : {}) });
  }
  return out;
}

/** Every relation of the warehouse, optionally only in `schemas`. */
export async function readRelations(driver: Driver, tools: SqlTools, schemas?: string[]): Promise<WarehouseRelation[]> {
  const all = await { postgresql: postgres, mysql, duckdb, sqlite }[driver.dialect](driver, tools);
  return schemas ? all.filter((r) => schemas.includes(r.schema)) : all;
}
