// A parse-only DuckDB session (in memory, no external access, configuration locked) for the guard:
// extractStatements counts statements, json_serialize_sql gives the SELECT tree (or an error for
// anything else), json_deserialize_sql prints a tree back. Trees keep DuckDB's exact numbers.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parseExactJson, stringifyExactJson } from './duckdb-json.ts';

type Node = Record<string, unknown>;

/** A parse-only DuckDB session used by the guard and rewriting. */
export interface DuckDbSql {
  count(sql: string): Promise<number>;
  serialize(sql: string): Promise<Node>;
  deserialize(tree: Node): Promise<string>;
  /** Parsed filtered subqueries by their text (bounded), reused by rewriting. */
  subqueries: Map<string, Node>;
  close(): void;
}

/** Opens the parse-only session; the owner closes it. */
export async function openDuckDbSql(): Promise<DuckDbSql> {
  // One thread: it only parses and prints SQL, and each DuckDB thread holds memory of its own.
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn: DuckDBConnection = await instance.connect();
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
  const scalar = async (sql: string, arg: string) => String((await conn.runAndReadAll(sql, [arg])).getRows()[0]?.[0] ?? '');
  return {
    async count(sql) {
      return (await conn.extractStatements(sql)).count;
    },
    async serialize(sql) {
      return parseExactJson(await scalar('SELECT json_serialize_sql($1::VARCHAR)', sql)) as Node;
    },
    async deserialize(tree) {
      return scalar('SELECT json_deserialize_sql($1::JSON)', stringifyExactJson(tree));
    },
    subqueries: new Map(),
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
