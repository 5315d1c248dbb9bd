// SQLite files, opened read-only (and query_only) so nothing can be written. better-sqlite3 is
// synchronous: rows are pulled in batches and the timeout is checked between batches.
import Database from 'better-sqlite3';
import { QueryFailed, WarehouseUnavailable } from '../errors.ts';
import { DEFAULT_BATCH, DEFAULT_TIMEOUT_MS, type ConnectionSettings, type Driver, type IntrospectedTable, type RowStream } from './driver.ts';

/** Opens a SQLite file read-only; the file must exist. */
export async function openSqlite(settings: ConnectionSettings): Promise<Driver> {
  let db: Database.Database;
  try {
    db = new Database(settings.path ?? '', { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
  } catch (err) {
    throw new WarehouseUnavailable(`Could not open the SQLite file: ${(err as Error).message}`);
  }
  return new SqliteDriver(db, settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS);
}

class SqliteDriver implements Driver {
  readonly type = 'sqlite';
  readonly dialect = 'sqlite' as const;
  readonly defaultSchema = 'main';
  constructor(
    private db: Database.Database,
    private timeoutMs: number,
  ) {}

  async stream(sql: string, opts: { timeoutMs?: number; batchSize?: number } = {}): Promise<RowStream> {
    let stmt: Database.Statement;
    try {
      stmt = this.db.prepare(sql);
      if (!stmt.readonly || !stmt.reader) throw new Error('only read-only statements that return rows may run');
    } catch (err) {
      throw new QueryFailed((err as Error).message);
    }
    const columns = stmt.columns().map((c) => ({ name: c.name, type: c.type ?? '' }));
    const size = opts.batchSize ?? DEFAULT_BATCH;
    const deadline = Date.now() + (opts.timeoutMs ?? this.timeoutMs);
    const iter = stmt.raw(true).iterate() as IterableIterator<unknown[]>;
    async function* batches() {
      try {
        for (;;) {
          const batch: unknown[][] = [];
          for (let r = iter.next(); !r.done; r = batch.length < size ? iter.next() : { done: true, value: undefined }) {
            batch.push(r.value.map((v) => (typeof v === 'bigint' ? v.toString() : v)));
            if (batch.length >= size) break;
          }
          if (batch.length > 0) yield batch;
          if (batch.length < size) return;
          if (Date.now() > deadline) throw new QueryFailed('Query timed out', 'QUERY_TIMEOUT');
          // Yield to the event loop between batches so one query cannot starve the server.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        if (err instanceof QueryFailed) throw err;
        throw new QueryFailed((err as Error).message);
      } finally {
        iter.return?.();
      }
    }
    return { columns, batches: batches() };
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    const tables = this.db
      .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    if (schemas && !schemas.includes('main')) return [];
    return tables.map((name) => ({
      schema: 'main',
      name,
      columns: (this.db.prepare('SELECT name, type, "notnull" FROM pragma_table_info(?)').all(name) as { name: string; type: string; notnull: number }[]).map(
        (c) => ({ name: c.name, type: c.type, nullable: c.notnull === 0 }),
      ),
    }));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
