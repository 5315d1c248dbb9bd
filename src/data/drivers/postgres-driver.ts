// PostgreSQL: each query runs in its own READ ONLY transaction through a server-side cursor, so rows
// arrive in batches (no extra cursor package needed). The query's budget stops it with
// pg_cancel_backend from a second connection (at the deadline, or when the caller goes away); a
// local statement timeout a second later is the server's own backstop if the gateway itself dies.
import { isIP } from 'node:net';
import pg from 'pg';
import { AppError } from '../../errors.ts';
import { QueryFailed, WarehouseUnavailable } from '../errors.ts';
import { connectFailure } from './connect-failure.ts';
import { PG_RECURSION_MARK } from '../guard/pg/pg-recursion-cap.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, paramValue, type ColumnMeta, type ConnectionSettings, type CsvCopy, type Driver, type IntrospectedTable, type RowStream, type StreamOptions } from './driver.ts';
import { QueryBudget } from './query-budget.ts';
import { groupColumns } from './group-columns.ts';
import { describePostgresCopy } from './postgres-csv-copy.ts';
import { WarehouseStop } from './warehouse-stop.ts';

// Dates, timestamps, numerics and 64-bit integers stay the server's text: exact and JSON-friendly.
const RAW_TYPES = new Set([20, 1700, 1082, 1083, 1114, 1184, 1266]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The server's own statement timeout sits this far past the budget: it acts only if the gateway cannot. */
const BACKSTOP_MS = 1000;

/** Engine errors become QueryFailed; the budget's own (timeout, cancelled) pass as they are. */
function failed(err: unknown): never {
  if (err instanceof AppError) throw err;
  const message = (err as Error).message;
  // The guard's depth cap fails a recursion with a cast of its mark (guard/pg/pg-recursion-cap.ts).
  const capped = (err as { code?: string }).code === '22P02' && new RegExp(`"${PG_RECURSION_MARK} (\\d+)"`).exec(message);
  if (capped) throw new QueryFailed(`The recursive query went past ${capped[1]} levels and was stopped; bound the recursion with a condition`, 'QUERY_RECURSION_LIMIT');
  throw new QueryFailed(message);
}

// The certificate is checked against the name typed, not the address connected to; never SNI for an address.
const tlsName = ({ tlsServername: n }: ConnectionSettings) => (n && isIP(n) === 0 ? { servername: n } : {});

/** Connects to PostgreSQL (also fits Redshift-compatible servers) with a read-only default. */
export async function openPostgres(settings: ConnectionSettings): Promise<Driver> {
  const config: pg.ClientConfig = {
    host: settings.host,
    port: settings.port ?? 5432,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: settings.ssl ? { rejectUnauthorized: true, ...tlsName(settings) } : undefined,
    connectionTimeoutMillis: 10_000,
    types,
    // Second wall: even a statement slipping past the guard meets a read-only session.
    options: '-c default_transaction_read_only=on',
  };
  const client = new pg.Client(config);
  let pid: number;
  try {
    await client.connect();
    pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new WarehouseUnavailable(`Could not connect to PostgreSQL: ${(err as Error).message}`, connectFailure(err));
  }
  client.on('error', () => undefined);
  return new PostgresDriver(client, settings.schema ?? 'public', settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS, new WarehouseStop(() => cancelBackend(config, pid)));
}

/** Cancels the statement a backend runs, from a connection of its own (the same role may). */
async function cancelBackend(config: pg.ClientConfig, pid: number): Promise<void> {
  const c = new pg.Client({ ...config, connectionTimeoutMillis: 5_000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch {
    // The backstop (the session's statement timeout) still ends the statement.
  } finally {
    await c.end().catch(() => undefined);
  }
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
    private stop: WarehouseStop,
  ) {}

  async stream(sql: string, opts: StreamOptions = {}): Promise<RowStream> {
    const c = this.client;
    const size = opts.batchSize ?? DEFAULT_BATCH;
    const timeoutMs = Math.max(1, Math.floor(opts.timeoutMs ?? this.timeoutMs));
    await this.stop.landed();
    const budget = new QueryBudget({ timeoutMs, signal: opts.signal, stop: () => void this.stop.send() });
    const fetch = () => budget.track(c.query({ text: `FETCH ${size} FROM sextant_cursor`, rowMode: 'array' })).catch(failed);
    let first: pg.QueryArrayResult;
    try {
      await c.query('BEGIN TRANSACTION READ ONLY');
      await c.query(`SET LOCAL statement_timeout = ${timeoutMs + BACKSTOP_MS}`);
      // A named (extended-protocol) statement: the server itself refuses more than one command, and
      // binds the placeholders' values (sent untyped: the server types each from where it stands,
      // as it would a quoted literal there).
      const values = (opts.params ?? []).map(paramValue);
      await budget.track(c.query({ name: `sextant_${++this.seq}`, text: `DECLARE sextant_cursor NO SCROLL CURSOR FOR ${sql}`, values })).catch(failed);
      first = await fetch();
    } catch (err) {
      budget.dispose();
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    const columns: ColumnMeta[] = [];
    for (const f of first.fields) columns.push({ name: f.name, type: await this.typeName(f.dataTypeID) });
    async function* batches() {
      try {
        let res = first;
        while (res.rows.length > 0) {
          yield res.rows;
          if (res.rows.length < size) break;
          res = await fetch();
        }
      } finally {
        budget.dispose();
        await c.query('ROLLBACK').catch(() => undefined);
      }
    }
    return { columns, batches: batches() };
  }

  /** COPY's CSV for results whose column types it writes as the row writer does; else undefined (see postgres-csv-copy.ts). */
  async csvCopy(sql: string): Promise<CsvCopy | undefined> {
    const c = this.client;
    await this.stop.landed();
    await c.query('BEGIN TRANSACTION READ ONLY');
    try {
      await c.query(`SET LOCAL statement_timeout = ${this.timeoutMs + BACKSTOP_MS}`);
      const copy = await describePostgresCopy(
        {
          client: c,
          budget: (timeoutMs, signal) => new QueryBudget({ timeoutMs: Math.max(1, Math.floor(timeoutMs ?? this.timeoutMs)), signal, stop: () => void this.stop.send() }),
          typeName: (oid) => this.typeName(oid),
          statementName: () => `sextant_${++this.seq}`,
          cancel: () => this.stop.send(),
          failed,
        },
        sql,
      );
      if (!copy) await c.query('ROLLBACK');
      return copy;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
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
    await this.stop.landed();
    const r = await this.client.query({
      text: `SELECT table_schema, table_name, column_name, data_type, is_nullable FROM information_schema.columns
             WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg_toast%'
             ORDER BY table_schema, table_name, ordinal_position`,
      rowMode: 'array',
    });
    return groupColumns(r.rows as string[][], schemas);
  }

  async ping(): Promise<void> {
    await this.stop.landed();
    await this.client.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
