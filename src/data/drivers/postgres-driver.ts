// PostgreSQL: each query runs in its own READ ONLY transaction with a local statement timeout,
// through a server-side cursor so rows arrive in batches (no extra cursor package needed).
import pg from 'pg';
import { QueryFailed, WarehouseUnavailable } from '../errors.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, type ColumnMeta, type ConnectionSettings, type Driver, type IntrospectedTable, type RowStream } from './driver.ts';
import { groupColumns } from './duckdb-driver.ts';

// Dates, timestamps, numerics and 64-bit integers stay the server's text: exact and JSON-friendly.
const RAW_TYPES = new Set([20, 1700, 1082, 1083, 1114, 1184, 1266]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connects to PostgreSQL (also fits Redshift-compatible servers) with a read-only default. */
export async function openPostgres(settings: ConnectionSettings): Promise<Driver> {
  const client = new pg.Client({
    host: settings.host,
    port: settings.port ?? 5432,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: settings.ssl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: 10_000,
    types,
    // Second wall: even a statement slipping past the guard meets a read-only session.
    options: '-c default_transaction_read_only=on',
  });
  try {
    await client.connect();
  } catch (err) {
    throw new WarehouseUnavailable(`Could not connect to PostgreSQL: ${(err as Error).message}`);
  }
  client.on('error', () => undefined);
  return new PostgresDriver(client, settings.schema ?? 'public', settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS);
}

class PostgresDriver implements Driver {
  readonly type = 'postgresql';
  readonly dialect = 'postgresql' as const;
  private typeNames = new Map<number, string>();
  private seq = 0;
  constructor(
    private client: pg.Client,
    readonly defaultSchema: string,
    private timeoutMs: number,
  ) {}

  async stream(sql: string, opts: { timeoutMs?: number; batchSize?: number } = {}): Promise<RowStream> {
    const c = this.client;
    const size = opts.batchSize ?? DEFAULT_BATCH;
    const timeout = Math.max(1, Math.floor(opts.timeoutMs ?? this.timeoutMs));
    let first: pg.QueryArrayResult;
    try {
      await c.query('BEGIN TRANSACTION READ ONLY');
      await c.query(`SET LOCAL statement_timeout = ${timeout}`);
      // A named (extended-protocol) statement: the server itself refuses more than one command.
      await c.query({ name: `sextant_${++this.seq}`, text: `DECLARE sextant_cursor NO SCROLL CURSOR FOR ${sql}` });
      first = await c.query({ text: `FETCH ${size} FROM sextant_cursor`, rowMode: 'array' });
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw new QueryFailed((err as Error).message);
    }
    const columns: ColumnMeta[] = [];
    for (const f of first.fields) columns.push({ name: f.name, type: await this.typeName(f.dataTypeID) });
    async function* batches() {
      try {
        let res = first;
        while (res.rows.length > 0) {
          yield res.rows;
          if (res.rows.length < size) break;
          res = await c.query({ text: `FETCH ${size} FROM sextant_cursor`, rowMode: 'array' });
        }
      } catch (err) {
        throw new QueryFailed((err as Error).message);
      } finally {
        await c.query('ROLLBACK').catch(() => undefined);
      }
    }
    return { columns, batches: batches() };
  }

  private async typeName(oid: number): Promise<string> {
    let name = this.typeNames.get(oid);
    if (!name) {
      const r = await this.client.query<{ t: string }>('SELECT format_type($1::oid, NULL) AS t', [oid]);
      name = r.rows[0]?.t ?? String(oid);
      this.typeNames.set(oid, name);
    }
    return name;
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    const r = await this.client.query({
      text: `SELECT table_schema, table_name, column_name, data_type, is_nullable FROM information_schema.columns
             WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
             ORDER BY table_schema, table_name, ordinal_position`,
      rowMode: 'array',
    });
    return groupColumns(r.rows as string[][], schemas);
  }

  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
