// MySQL and MariaDB: each query runs in START TRANSACTION READ ONLY with a server-side time limit
// (MySQL max_execution_time, MariaDB max_statement_time) and streams rows from the socket.
import mysql from 'mysql2';
import { QueryFailed, WarehouseUnavailable } from '../errors.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, inBatches, type ConnectionSettings, type Driver, type IntrospectedTable, type RowStream } from './driver.ts';
import { groupColumns } from './duckdb-driver.ts';

/** Connects to MySQL or MariaDB; dates, decimals and big integers come back as strings. */
export async function openMysql(settings: ConnectionSettings): Promise<Driver> {
  const conn = mysql.createConnection({
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
  });
  const p = conn.promise();
  try {
    await p.connect();
  } catch (err) {
    conn.destroy();
    throw new WarehouseUnavailable(`Could not connect to MySQL: ${(err as Error).message}`);
  }
  conn.on('error', () => undefined);
  const [rows] = await p.query('SELECT VERSION() AS v, DATABASE() AS db');
  const info = (rows as { v: string; db: string | null }[])[0];
  const mariadb = /mariadb/i.test(info?.v ?? '');
  return new MysqlDriver(conn, settings.database ?? info?.db ?? '', mariadb, settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS);
}

class MysqlDriver implements Driver {
  readonly type = 'mysql';
  readonly dialect = 'mysql' as const;
  constructor(
    private conn: mysql.Connection,
    readonly defaultSchema: string,
    private mariadb: boolean,
    private timeoutMs: number,
  ) {}

  async stream(sql: string, opts: { timeoutMs?: number; batchSize?: number } = {}): Promise<RowStream> {
    const p = this.conn.promise();
    const timeout = Math.max(1, Math.floor(opts.timeoutMs ?? this.timeoutMs));
    try {
      await p.query(this.mariadb ? `SET SESSION max_statement_time = ${timeout / 1000}` : `SET SESSION max_execution_time = ${timeout}`);
      await p.query('START TRANSACTION READ ONLY');
    } catch (err) {
      throw new QueryFailed((err as Error).message);
    }
    const size = opts.batchSize ?? DEFAULT_BATCH;
    const query = this.conn.query({ sql, rowsAsArray: true, timeout: timeout + 1000 });
    // The stream must exist before the first row arrives, or rows emitted with the fields are lost.
    const rows = query.stream({ objectMode: true, highWaterMark: size });
    rows.on('error', () => undefined);
    const columns = await new Promise<{ name: string; type: string }[]>((resolve, reject) => {
      query.once('fields', (fields: mysql.FieldPacket[]) =>
        resolve(fields.map((f) => ({ name: f.name, type: mysqlTypeName(f.type ?? f.columnType) }))),
      );
      query.once('error', (err: Error) => reject(new QueryFailed(err.message)));
      // Statements without a result set (refused writes) end without fields.
      query.once('end', () => resolve([]));
    }).catch(async (err: unknown) => {
      await p.query('ROLLBACK').catch(() => undefined);
      throw err;
    });
    async function* batches() {
      try {
        yield* inBatches(rows as AsyncIterable<unknown[]>, size, (r) => r);
      } catch (err) {
        throw new QueryFailed((err as Error).message);
      } finally {
        rows.destroy();
        await p.query('ROLLBACK').catch(() => undefined);
      }
    }
    return { columns, batches: batches() };
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    const [rows] = await this.conn.promise().query({
      sql: `SELECT table_schema, table_name, column_name, column_type, is_nullable FROM information_schema.columns
            WHERE table_schema NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')
            ORDER BY table_schema, table_name, ordinal_position`,
      rowsAsArray: true,
    });
    return groupColumns(rows as string[][], schemas ?? (this.defaultSchema ? [this.defaultSchema] : undefined));
  }

  async ping(): Promise<void> {
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
