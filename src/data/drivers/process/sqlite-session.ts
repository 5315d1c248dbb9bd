// SQLite inside a query process: the file opened read-only (and query_only), temporary tables and
// sorts kept in memory, where the process's watchdog bounds them (on disk nothing would: this build
// has no memory statistics, so SQLite's own heap limits are not enforced). better-sqlite3 is
// synchronous and SQLite cannot be interrupted from JavaScript: that is why it runs here, in a
// process the gateway can kill, and never on the gateway's event loop.
import Database from 'better-sqlite3';
import { EngineError, messageOf, type EngineSession } from './engine-session.ts';
import type { SqlParam } from '../../types.ts';
import type { ColumnMeta, IntrospectedTable } from '../driver.ts';
import { recursionLimitMessage, STEP_FUNCTION } from '../../guard/recursion-step.ts';
import { DEFAULT_MAX_RECURSION } from '../../../shared/query-limits.ts';

/** Thrown from inside SQLite by the step function; ends the statement. */
class RecursionCapped extends Error {}

/** Opens a SQLite file read-only; the file must exist. */
export function openSqliteSession(path: string, maxRecursion = DEFAULT_MAX_RECURSION): EngineSession {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    db.pragma('temp_store = MEMORY');
  } catch (err) {
    throw new EngineError('unavailable', `Could not open the SQLite file: ${messageOf(err)}`);
  }
  return new SqliteSession(db, Math.floor(maxRecursion));
}

class SqliteSession implements EngineSession {
  readonly defaultSchema = 'main';
  private cursor: IterableIterator<unknown[]> | undefined;
  private batchSize = 1000;
  /** Rows the recursive terms of the current statement produced (see guard/sqlite/recursion-cap.ts). */
  private steps = 0;
  constructor(
    private readonly db: Database.Database,
    maxRecursion: number,
  ) {
    // The guard wraps one output value of every recursive term in this function: it returns the
    // value as it is (integers as BigInt, so none loses digits) and fails the statement past the cap.
    db.function(STEP_FUNCTION, { deterministic: false, safeIntegers: true }, (value: unknown) => {
      if (++this.steps > maxRecursion) {
        throw new RecursionCapped(recursionLimitMessage(maxRecursion));
      }
      return value as number;
    });
  }

  async introspect(schemas?: string[]): Promise<IntrospectedTable[]> {
    if (schemas && !schemas.includes('main')) return [];
    const tables = this.db
      .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const info = this.db.prepare('SELECT name, type, "notnull" FROM pragma_table_info(?)');
    return tables.map((name) => ({
      schema: 'main',
      name,
      columns: (info.all(name) as { name: string; type: string; notnull: number }[]).map((c) => ({ name: c.name, type: c.type, nullable: c.notnull === 0 })),
    }));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async query(sql: string, batchSize: number, params: readonly SqlParam[]): Promise<ColumnMeta[]> {
    await this.release();
    this.steps = 0;
    try {
      const stmt = this.db.prepare(sql);
      // The second wall: whatever the guard let through, only statements that read may run.
      if (!stmt.readonly || !stmt.reader) throw new Error('only read-only statements that return rows may run');
      const columns = stmt.columns().map((c) => ({ name: c.name, type: c.type ?? '' }));
      // Integers come as BigInt so that those past 2^53 keep every digit (as text, see jsonSafe).
      this.cursor = stmt.raw(true).safeIntegers(true).iterate(...params.map(sqliteValue)) as IterableIterator<unknown[]>;
      this.batchSize = batchSize;
      return columns;
    } catch (err) {
      throw new EngineError('failed', messageOf(err));
    }
  }

  async next(): Promise<{ rows: unknown[][]; done: boolean }> {
    const cursor = this.cursor;
    if (!cursor) return { rows: [], done: true };
    const rows: unknown[][] = [];
    try {
      while (rows.length < this.batchSize) {
        const r = cursor.next();
        if (r.done) {
          this.cursor = undefined;
          return { rows, done: true };
        }
        rows.push(r.value.map(jsonSafe));
      }
    } catch (err) {
      this.cursor = undefined;
      throw new EngineError(err instanceof RecursionCapped ? 'recursion_limit' : 'failed', messageOf(err));
    }
    return { rows, done: false };
  }

  async release(): Promise<void> {
    this.cursor?.return?.();
    this.cursor = undefined;
  }

  async close(): Promise<void> {
    await this.release();
    this.db.close();
  }
}

/**
 * A parameter as SQLite binds it: a whole number as an INTEGER (better-sqlite3 binds every JS number
 * as a REAL, and a REAL 5.0 does not equal the text '5' of a TEXT column where the literal 5 does).
 */
function sqliteValue(p: SqlParam): string | number | bigint {
  return p.type === 'number' && Number.isSafeInteger(p.value) ? BigInt(p.value) : p.value;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Values that JSON would lose (integers past 2^53, infinities) travel as their text. */
function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return v <= SAFE && v >= -SAFE ? Number(v) : v.toString();
  return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
}
