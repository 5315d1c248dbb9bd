// MySQL and MariaDB: each query runs in START TRANSACTION READ ONLY and streams rows from the socket.
// The query's budget stops it with KILL QUERY from a second connection (at the deadline, or when the
// caller goes away); the server's own time limit (MySQL max_execution_time, MariaDB
// max_statement_time) a second later is the backstop if the gateway itself dies. Recursive CTEs are
// capped by the server (MariaDB max_recursive_iterations, MySQL cte_max_recursion_depth). A statement
// with placeholders runs as a server-side prepared statement (mysql2's execute): the values travel in
// the binary protocol, never escaped into the text as mysql2's query() would do on the client.
import mysql from 'mysql2';
import { AppError } from '../../errors.ts';
import { QueryFailed, WarehouseUnavailable } from '../errors.ts';
import { connectFailure } from './connect-failure.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, inBatches, paramValue, type ConnectionSettings, type Driver, type DriverContext, type IntrospectedTable, type RowStream, type StreamOptions } from './driver.ts';
import { QueryBudget } from './query-budget.ts';
import { groupColumns } from './group-columns.ts';
import { WarehouseStop } from './warehouse-stop.ts';
import { DEFAULT_MAX_RECURSION } from '../../shared/query-limits.ts';
import type { SqlParam } from '../types.ts';

/** The server's own time limit sits this far past the budget: it acts only if the gateway cannot. */
const BACKSTOP_MS = 1000;
/** MariaDB's "the query exceeded max_recursive_iterations; the result may be incomplete". */
const ER_QUERY_RESULT_INCOMPLETE = 1931;
const ER_CTE_MAX_RECURSION_DEPTH = 3636;

/** Connects to MySQL or MariaDB; dates, decimals and big integers come back as strings. */
export async function openMysql(settings: ConnectionSettings, ctx: DriverContext = {}): Promise<Driver> {
  const options: mysql.ConnectionOptions = {
    host: settings.host,
    port: settings.port ?? 3306,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: settings.ssl ? {} : undefined,
    connectTimeout: 10_000,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    multipleStatements: false,
  };
  const conn = mysql.createConnection(options);
  const p = conn.promise();
  try {
    await p.connect();
  } catch (err) {
    conn.destroy();
    throw new WarehouseUnavailable(`Could not connect to MySQL: ${(err as Error).message}`, connectFailure(err));
  }
  conn.on('error', () => undefined);
  const [rows] = await p.query('SELECT VERSION() AS v, DATABASE() AS db');
  const info = (rows as { v: string; db: string | null }[])[0];
  const mariadb = /mariadb/i.test(info?.v ?? '');
  const depth = Math.floor(ctx.maxRecursion ?? DEFAULT_MAX_RECURSION);
  await p.query(mariadb ? `SET SESSION max_recursive_iterations = ${depth}` : `SET SESSION cte_max_recursion_depth = ${depth}`).catch(() => undefined);
  const stop = new WarehouseStop(() => killQuery(options, conn.threadId));
  return new MysqlDriver(conn, settings.database ?? info?.db ?? '', mariadb, settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS, stop, depth);
}

/** Stops the statement a connection runs, from a connection of its own (the same user may). */
async function killQuery(options: mysql.ConnectionOptions, threadId: number | null): Promise<void> {
  if (threadId === null) return;
  const c = mysql.createConnection({ ...options, connectTimeout: 5_000 });
  c.on('error', () => undefined);
  try {
    await c.promise().query(`KILL QUERY ${Number(threadId)}`);
  } catch {
    // The backstop (the session's time limit) still ends the statement.
  } finally {
    c.destroy();
  }
}

/**
 * MariaDB ends a recursive CTE at max_recursive_iterations with a warning and a cut result (MySQL
 * fails the statement): a cut result would read as a true one, so it fails here too.
 */
async function recursionCapped(p: ReturnType<mysql.Connection['promise']>, depth: number): Promise<void> {
  const [warnings] = await p.query('SHOW WARNINGS');
  if ((warnings as { Code: number }[]).some((w) => w.Code === ER_QUERY_RESULT_INCOMPLETE)) {
    throw new QueryFailed(`The recursive query went past ${depth} iterations and was stopped; bound the recursion with a condition`, 'QUERY_RECURSION_LIMIT');
  }
}

/** Engine errors become QueryFailed; the budget's own (timeout, cancelled) pass as they are. */
function failed(err: unknown): never {
  if (err instanceof AppError) throw err;
  // MySQL's own "recursive query aborted after N iterations" (cte_max_recursion_depth).
  const code = (err as { errno?: number }).errno === ER_CTE_MAX_RECURSION_DEPTH ? 'QUERY_RECURSION_LIMIT' : 'QUERY_FAILED';
  throw new QueryFailed((err as Error).message, code);
}

/**
 * The statement's command: a plain query, or with values a server-side prepared statement whose
 * placeholders the server counted as the values (the server ignores values past its own count). Rows
 * read the same from both protocols (dates as text, decimals and big integers as strings).
 */
async function start(conn: mysql.Connection, sql: string, params: readonly SqlParam[]) {
  // Wrapped: a mysql2 command is a thenable that throws when awaited.
  if (params.length === 0) return { command: conn.query({ sql, rowsAsArray: true }) };
  // Prepared once: execute finds the statement in the connection's cache under the same options.
  const prepared = (await conn.promise().prepare({ sql, rowsAsArray: true })) as unknown as { statement: { parameters: unknown[] } };
  const expected = prepared.statement.parameters.length;
  if (expected !== params.length) throw new QueryFailed(`The statement has ${expected} placeholders for ${params.length} values`);
  return { command: conn.execute({ sql, rowsAsArray: true }, params.map(paramValue)) };
}

class MysqlDriver implements Driver {
  readonly type = 'mysql';
  readonly dialect = 'mysql' as const;
  constructor(
    private conn: mysql.Connection,
    readonly defaultSchema: string,
    private mariadb: boolean,
    private timeoutMs: number,
    private stop: WarehouseStop,
    private maxRecursion: number,
  ) {}

  async stream(sql: string, opts: StreamOptions = {}): Promise<RowStream> {
    const p = this.conn.promise();
    const timeoutMs = Math.max(1, Math.floor(opts.timeoutMs ?? this.timeoutMs));
    const backstop = timeoutMs + BACKSTOP_MS;
    await this.stop.landed();
    try {
      await p.query(this.mariadb ? `SET SESSION max_statement_time = ${backstop / 1000}` : `SET SESSION max_execution_time = ${backstop}`);
      await p.query('START TRANSACTION READ ONLY');
    } catch (err) {
      throw new QueryFailed((err as Error).message);
    }
    const budget = new QueryBudget({ timeoutMs, signal: opts.signal, stop: () => void this.stop.send() });
    const size = opts.batchSize ?? DEFAULT_BATCH;
    const { command: query } = await budget.track(start(this.conn, sql, opts.params ?? [])).catch(async (err: unknown) => {
      budget.dispose();
      await p.query('ROLLBACK').catch(() => undefined);
      return failed(err);
    });
    // The stream must exist before the first row arrives, or rows emitted with the fields are lost.
    const rows = query.stream({ objectMode: true, highWaterMark: size });
    rows.on('error', () => undefined);
    const fields = new Promise<{ name: string; type: string }[]>((resolve, reject) => {
      query.once('fields', (list: mysql.FieldPacket[]) => resolve(list.map((f) => ({ name: f.name, type: mysqlTypeName(f.type ?? f.columnType) }))));
      query.once('error', reject);
      // Statements without a result set (refused writes) end without fields.
      query.once('end', () => resolve([]));
    });
    const end = async () => {
      budget.dispose();
      rows.destroy();
      await p.query('ROLLBACK').catch(() => undefined);
    };
    const columns = await budget.track(fields).catch(async (err: unknown) => {
      await end();
      return failed(err);
    });
    const it = inBatches(rows as AsyncIterable<unknown[]>, size, (r) => r)[Symbol.asyncIterator]();
    const stop = this.stop;
    const capped = () => (this.mariadb ? recursionCapped(p, this.maxRecursion) : Promise.resolve());
    async function* batches() {
      let ended = false;
      try {
        for (let r = await budget.track(it.next()).catch(failed); !r.done; r = await budget.track(it.next()).catch(failed)) yield r.value;
        ended = true;
        await capped();
      } catch (err) {
        ended = true;
        throw err;
      } finally {
        // A reader that stopped early: the server would send the rest of the result before the connection is free again.
        if (!ended && !budget.stopReason) await stop.send();
        await end();
      }
    }
    return { columns, batches: batches() };
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    await this.stop.landed();
    const [rows] = await this.conn.promise().query({
      sql: `SELECT table_schema, table_name, column_name, column_type, is_nullable FROM information_schema.columns
            WHERE table_schema NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')
            ORDER BY table_schema, table_name, ordinal_position`,
      rowsAsArray: true,
    });
    return groupColumns(rows as string[][], schemas ?? (this.defaultSchema ? [this.defaultSchema] : undefined));
  }

  async ping(): Promise<void> {
    await this.stop.landed();
    await this.conn.promise().query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.conn.promise().end().catch(() => this.conn.destroy());
  }
}

// mysql2 reports numeric type codes; the common ones get their SQL names.
const MYSQL_TYPES: Record<number, string> = {
  0: 'DECIMAL', 1: 'TINYINT', 2: 'SMALLINT', 3: 'INT', 4: 'FLOAT', 5: 'DOUBLE', 7: 'TIMESTAMP', 8: 'BIGINT', 9: 'MEDIUMINT',
  10: 'DATE', 11: 'TIME', 12: 'DATETIME', 13: 'YEAR', 15: 'VARCHAR', 16: 'BIT', 245: 'JSON', 246: 'DECIMAL', 252: 'BLOB', 253: 'VARCHAR', 254: 'CHAR',
};

function mysqlTypeName(code: number | undefined): string {
  return code === undefined ? 'UNKNOWN' : (MYSQL_TYPES[code] ?? `TYPE_${code}`);
}
