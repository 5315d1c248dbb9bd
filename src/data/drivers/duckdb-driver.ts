// DuckDB: an in-memory instance that ATTACHes the warehouse file READ_ONLY, then locks itself down
// (allowed directories, no external access, configuration locked), in that order (see notes).
import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBResult } from '@duckdb/node-api';
import type { Writable } from 'node:stream';
import { copyDuckDbCsv } from '../export/copy-duckdb-csv.ts';
import { WarehouseUnavailable, QueryFailed } from '../errors.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, type ConnectionSettings, type CsvCopy, type Driver, type DriverContext, type IntrospectedTable, type RowStream } from './driver.ts';

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Opens a locked-down DuckDB session over a warehouse file (or an empty in-memory catalog). */
export async function openDuckDb(settings: ConnectionSettings, ctx: DriverContext = {}): Promise<Driver> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: String(ctx.threads ?? 2),
  });
  const conn = await instance.connect();
  try {
    if (settings.path) {
      await conn.run(`ATTACH ${sqlString(settings.path)} AS wh (READ_ONLY)`);
      // Unqualified names resolve in the attached warehouse (and its configured schema).
      await conn.run(settings.schema ? `USE wh."${settings.schema.replace(/"/g, '""')}"` : 'USE wh');
    }
    // The export folder holds only the CSV file: the session may write there and nowhere else.
    const dirs = [...(ctx.allowedDirectories ?? []), ...(ctx.exportDirectory ? [ctx.exportDirectory] : [])].map(sqlString).join(', ');
    await conn.run(`SET allowed_directories = [${dirs}]`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw new WarehouseUnavailable(`Could not open the DuckDB warehouse: ${(err as Error).message}`);
  }
  return new DuckDbDriver(instance, conn, settings.schema ?? 'main', settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS, ctx.exportDirectory);
}

class DuckDbDriver implements Driver {
  readonly type = 'duckdb';
  readonly dialect = 'duckdb' as const;
  constructor(
    private instance: DuckDBInstance,
    /** Exposed for the DuckDB guard and RLS, which parse with the engine itself. */
    readonly conn: DuckDBConnection,
    readonly defaultSchema: string,
    private timeoutMs: number,
    private exportDirectory?: string,
  ) {}

  async csvCopy(sql: string): Promise<CsvCopy> {
    const dir = this.exportDirectory;
    if (!dir) throw new Error('This DuckDB session was opened without an export directory');
    // Binding checks names and types now, so a bad query fails before the caller answers anything.
    let prepared;
    try {
      prepared = await this.conn.prepare(sql);
    } catch (err) {
      throw new QueryFailed((err as Error).message);
    }
    const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: String(prepared.columnType(i)) }));
    const isSelect = prepared.statementType === StatementType.SELECT;
    prepared.destroySync();
    // The guard already allowed one SELECT only; this is the engine's own word on it.
    if (!isSelect) throw new QueryFailed('Only a SELECT can be exported');
    const conn = this.conn;
    const timeoutMs = this.timeoutMs;
    return {
      columns,
      async run(out: Writable, signal?: AbortSignal) {
        const stop = () => conn.interrupt();
        const timer = setTimeout(stop, timeoutMs);
        signal?.addEventListener('abort', stop, { once: true });
        try {
          return await copyDuckDbCsv({ conn, sql, out, dir, newLine: 'crlf', end: false });
        } catch (err) {
          throw (err as { code?: string }).code === 'EXPORT_ABORTED' ? err : new QueryFailed((err as Error).message);
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stop);
        }
      },
    };
  }

  async stream(sql: string, opts: { timeoutMs?: number; batchSize?: number } = {}): Promise<RowStream> {
    const timer = setTimeout(() => this.conn.interrupt(), opts.timeoutMs ?? this.timeoutMs);
    let result: DuckDBResult;
    try {
      result = await this.conn.stream(sql);
    } catch (err) {
      clearTimeout(timer);
      throw new QueryFailed((err as Error).message);
    }
    const columns = result.columnNames().map((name, i) => ({ name, type: String(result.columnType(i)) }));
    const size = opts.batchSize ?? DEFAULT_BATCH;
    async function* batches() {
      try {
        let batch: unknown[][] = [];
        for await (const rows of result.yieldRowsJson()) {
          for (const row of rows) {
            batch.push(row as unknown[]);
            if (batch.length >= size) {
              yield batch;
              batch = [];
            }
          }
        }
        if (batch.length > 0) yield batch;
      } catch (err) {
        throw new QueryFailed((err as Error).message);
      } finally {
        clearTimeout(timer);
      }
    }
    return { columns, batches: batches() };
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    const reader = await this.conn.runAndReadAll(
      `SELECT table_schema, table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_catalog = current_database() AND table_schema NOT IN ('information_schema', 'pg_catalog')
       ORDER BY table_schema, table_name, ordinal_position`,
    );
    return groupColumns(reader.getRowsJson() as string[][], schemas);
  }

  async ping(): Promise<void> {
    await this.conn.run('SELECT 1');
  }

  async close(): Promise<void> {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

/** Groups `(schema, table, column, type, nullable)` rows into tables. */
export function groupColumns(rows: (string | number | null)[][], schemas?: string[]): IntrospectedTable[] {
  const out = new Map<string, IntrospectedTable>();
  for (const [schema, table, column, type, nullable] of rows) {
    const s = String(schema);
    if (schemas && !schemas.includes(s)) continue;
    const key = `${s}.${String(table)}`;
    let t = out.get(key);
    if (!t) out.set(key, (t = { schema: s, name: String(table), columns: [] }));
    t.columns.push({ name: String(column), type: String(type), nullable: String(nullable).toUpperCase() === 'YES' });
  }
  return [...out.values()];
}
