// The PostgreSQL handle of the service database: a Kysely query builder on a pg pool. Not yet the
// service's store (the domains still read SQLite synchronously); `sextant-admin migrate` and
// `copy-store` use it, and the asynchronous store will.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

export interface PgStore {
  /** Untyped: the tables are the migrations', and the shared store code names them. */
  db: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Kysely's untyped database
  /** A round trip to the database; rejects when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * BIGINT (times in milliseconds, counters, 0/1 flags) comes back as a JS number, as SQLite gives it;
 * pg's default string would make every shared query dialect-specific. A value past 2^53 is refused
 * rather than rounded.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`BIGINT ${text} exceeds JavaScript's safe integers`);
  return n;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Opens a pool on `url` (postgres://...); connects lazily, so ping() is the first proof it answers.
 * `connectTimeoutMs` bounds one connection's set-up (0: no bound), as SEXTANT_DATABASE_CONNECT_TIMEOUT_MS.
 */
export function openPostgres(url: string, { max = 10, connectTimeoutMs = 10_000 }: { max?: number; connectTimeoutMs?: number } = {}): PgStore {
  const pool = new pg.Pool({ connectionString: url, max, types, connectionTimeoutMillis: connectTimeoutMs });
  // An idle client that loses its server emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', () => {});
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) }); // eslint-disable-line @typescript-eslint/no-explicit-any
  return {
    db,
    ping: async () => void (await sql`SELECT 1`.execute(db)),
    close: () => db.destroy(),
  };
}

/** The URL with its password masked, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
