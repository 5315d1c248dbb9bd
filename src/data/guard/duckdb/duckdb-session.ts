// A parse-only DuckDB session (in memory, no external access, configuration locked) for the guard:
// extractStatements counts statements, json_serialize_sql gives the SELECT tree (or an error for
// anything else), json_deserialize_sql prints a tree back. Trees keep DuckDB's exact numbers.
import type { DuckDBConnection } from '@duckdb/node-api';
import { parseExactJson, stringifyExactJson } from './duckdb-json.ts';

type Node = Record<string, unknown>;

/** A parse-only DuckDB session used by the guard and rewriting. */
export interface DuckDbSql {
  count(sql: string): Promise<number>;
  serialize(sql: string): Promise<Node>;
  deserialize(tree: Node): Promise<string>;
  /** Parsed filtered subqueries by their text (bounded), reused by rewriting. */
  subqueries: Map<string, Node>;
  /** Refuses new work, waits for the work under way, then closes the instance. */
  close(): Promise<void>;
}

/**
 * The parse-only session, opened when the guard first needs it: DuckDB's module and instance are ~50 MB
 * of the gateway's memory, which a gateway that has not yet run a query need not hold (issue 38). The
 * owner closes it.
 */
export async function openDuckDbSql(): Promise<DuckDbSql> {
  let session: Promise<Session> | undefined;
  let closed = false;
  // DuckDB runs each call on a thread of libuv's pool: closing the instance under one still parsing
  // freed what that thread was using (a SIGSEGV at shutdown, seen when SIGTERM came while requests
  // were being guarded). Close waits for the calls under way.
  const underWay = new Set<Promise<unknown>>();
  const work = <T>(call: (s: Session) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('the parse-only DuckDB session is closed'));
    const result = (session ??= connect()).then(call);
    const settled = result.then(() => undefined, () => undefined);
    underWay.add(settled);
    void settled.then(() => underWay.delete(settled));
    return result;
  };
  return {
    count: (sql) => work(async (s) => (await s.conn.extractStatements(sql)).count),
    serialize: (sql) => work(async (s) => parseExactJson(await s.scalar('SELECT json_serialize_sql($1::VARCHAR)', sql)) as Node),
    deserialize: (tree) => work((s) => s.scalar('SELECT json_deserialize_sql($1::JSON)', stringifyExactJson(tree))),
    subqueries: new Map(),
    async close() {
      closed = true;
      await Promise.all(underWay);
      // A session still opening closes once open.
      (await session?.catch(() => undefined))?.close();
    },
  };
}

interface Session {
  conn: DuckDBConnection;
  scalar(sql: string, arg: string): Promise<string>;
  close(): void;
}

async function connect(): Promise<Session> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  // One thread: it only parses and prints SQL, and each DuckDB thread holds memory of its own.
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn: DuckDBConnection = await instance.connect();
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
  return {
    conn,
    scalar: async (sql, arg) => String((await conn.runAndReadAll(sql, [arg])).getRows()[0]?.[0] ?? ''),
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
