// DuckDB inside a query process: a connection on a locked-down in-memory instance that ATTACHes the
// warehouse file READ_ONLY (duckdb-instances.ts, which also says why an instance may serve one
// session after another). Its memory limit is the process's; what escapes DuckDB's own accounting
// (huge strings built in a vector) meets the process's watchdog.
import { BOOLEAN, DuckDBScalarFunction, StatementType, type DuckDBConnection, type DuckDBResult } from '@duckdb/node-api';
import { DEFAULT_MAX_RECURSION } from '../../../shared/query-limits.ts';
import { recursionLimitMessage, STEP_FUNCTION } from '../../guard/recursion-step.ts';
import type { SqlParam } from '../../types.ts';
import { paramValue, type ColumnMeta, type IntrospectedTable } from '../driver.ts';
import { groupColumns } from '../group-columns.ts';
import { leaseDuckDb, type DuckDbLease } from './duckdb-instances.ts';
import { EngineError, messageOf, type EngineSession, type SessionLimits } from './engine-session.ts';
import type { OpenRequest } from './protocol.ts';

// A warmed process makes its spare instance ahead of its first session.
export { prepareSpare } from './duckdb-instances.ts';

/** Opens a locked-down DuckDB session over a warehouse file (or an empty in-memory catalog). */
export async function openDuckDbSession(req: OpenRequest, limits: SessionLimits): Promise<EngineSession> {
  const lease = await leaseDuckDb(req, limits);
  const steps = new StepCounter(Math.floor(req.maxRecursion ?? DEFAULT_MAX_RECURSION));
  try {
    // A function registered through a connection lives in the instance's system catalog, where the
    // guard's rewrite names it in full (system.main.sextant_step), so no macro of the warehouse can
    // stand in. Each session registers its own, with its own cap, replacing the previous session's
    // (an instance serves one session at a time).
    lease.conn.registerScalarFunction(steps.function());
  } catch (err) {
    await lease.close();
    throw new EngineError('unavailable', `Could not open the DuckDB warehouse: ${messageOf(err)}`);
  }
  return new DuckDbSession(lease, lease.conn, req.schema ?? 'main', steps);
}

/**
 * The step function of guard/duckdb/duckdb-recursion-cap.ts: a volatile filter that is true for every
 * row a recursive term reads back from its working table, and fails the statement past the cap. The
 * count is per statement: the session resets it before each one.
 */
class StepCounter {
  private count = 0;
  /** Set when the function failed the statement: its error is then QUERY_RECURSION_LIMIT. */
  capped = false;
  constructor(private readonly cap: number) {}

  reset(): void {
    this.count = 0;
    this.capped = false;
  }

  function(): DuckDBScalarFunction {
    return DuckDBScalarFunction.create({
      name: STEP_FUNCTION,
      returnType: BOOLEAN,
      volatile: true,
      mainFunction: (info, input, output) => {
        this.count += input.rowCount;
        if (this.count > this.cap) {
          this.capped = true;
          info.setError(recursionLimitMessage(this.cap));
          return;
        }
        for (let i = 0; i < input.rowCount; i++) output.setItem(i, true);
        output.flush();
      },
    });
  }

  /** The engine's error for a failure of the statement. */
  error(err: unknown): EngineError {
    return new EngineError(this.capped ? 'recursion_limit' : 'failed', this.capped ? recursionLimitMessage(this.cap) : messageOf(err));
  }
}

class DuckDbSession implements EngineSession {
  private rows: AsyncIterator<unknown[][]> | undefined;
  private pending: unknown[][] = [];
  private batchSize = 1000;
  constructor(
    private readonly lease: DuckDbLease,
    private readonly conn: DuckDBConnection,
    readonly defaultSchema: string,
    private readonly steps: StepCounter,
  ) {}

  async introspect(schemas?: string[]): Promise<IntrospectedTable[]> {
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

  async query(sql: string, batchSize: number, params: readonly SqlParam[]): Promise<ColumnMeta[]> {
    await this.release();
    this.steps.reset();
    let result: DuckDBResult;
    try {
      // Bound values are cast to the type DuckDB infers for each placeholder from where it stands.
      result = params.length > 0 ? await this.conn.stream(sql, params.map(paramValue)) : await this.conn.stream(sql);
    } catch (err) {
      throw this.steps.error(err);
    }
    this.rows = result.yieldRowsJson()[Symbol.asyncIterator]() as AsyncIterator<unknown[][]>;
    this.batchSize = batchSize;
    return result.columnNames().map((name, i) => ({ name, type: String(result.columnType(i)) }));
  }

  async next(): Promise<{ rows: unknown[][]; done: boolean }> {
    try {
      while (this.rows && this.pending.length < this.batchSize) {
        const chunk = await this.rows.next();
        if (chunk.done) this.rows = undefined;
        else this.pending.push(...chunk.value);
      }
    } catch (err) {
      this.rows = undefined;
      this.pending = [];
      throw this.steps.error(err);
    }
    const rows = this.pending.splice(0, this.batchSize);
    return { rows, done: !this.rows && this.pending.length === 0 };
  }

  async release(): Promise<void> {
    await this.rows?.return?.();
    this.rows = undefined;
    this.pending = [];
  }

  async describe(sql: string): Promise<{ columns: ColumnMeta[]; isSelect: boolean }> {
    let prepared;
    try {
      prepared = await this.conn.prepare(sql);
    } catch (err) {
      throw new EngineError('failed', messageOf(err));
    }
    const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: String(prepared.columnType(i)) }));
    const isSelect = prepared.statementType === StatementType.SELECT;
    prepared.destroySync();
    return { columns, isSelect };
  }

  async run(sql: string): Promise<{ rowsChanged: number }> {
    this.steps.reset();
    try {
      return { rowsChanged: Number((await this.conn.run(sql)).rowsChanged) };
    } catch (err) {
      throw this.steps.error(err);
    }
  }

  async close(): Promise<void> {
    await this.release();
    await this.lease.close();
  }
}
