// DuckDB inside a query process: an in-memory instance that ATTACHes the warehouse file READ_ONLY,
// then locks itself down (allowed directories, no external access, configuration locked), in that
// order (see notes). Its memory limit and spill folder are the process's; what escapes DuckDB's own
// accounting (huge strings built in a vector) meets the process's watchdog.
import { BOOLEAN, DuckDBInstance, DuckDBScalarFunction, StatementType, type DuckDBConnection, type DuckDBResult } from '@duckdb/node-api';
import { DEFAULT_MAX_RECURSION } from '../../../shared/query-limits.ts';
import { recursionLimitMessage, STEP_FUNCTION } from '../../guard/recursion-step.ts';
import type { ColumnMeta, IntrospectedTable } from '../driver.ts';
import { groupColumns } from '../group-columns.ts';
import { EngineError, messageOf, type EngineSession, type SessionLimits } from './engine-session.ts';
import type { OpenRequest } from './protocol.ts';

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Opens a locked-down DuckDB session over a warehouse file (or an empty in-memory catalog). */
export async function openDuckDbSession(req: OpenRequest, limits: SessionLimits): Promise<EngineSession> {
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: String(req.threads ?? 2),
    memory_limit: `${Math.floor(limits.engineBytes / 1024)}KiB`,
    temp_directory: limits.tempDirectory,
    max_temp_directory_size: `${Math.floor(limits.tempBytes / 1024)}KiB`,
  });
  const conn = await instance.connect();
  const steps = new StepCounter(Math.floor(req.maxRecursion ?? DEFAULT_MAX_RECURSION));
  try {
    // Before the lock-down: a function registered now lives in the system catalog, where the guard's
    // rewrite names it in full (system.main.sextant_step), so no macro of the warehouse can stand in.
    conn.registerScalarFunction(steps.function());
    if (req.path) {
      await conn.run(`ATTACH ${sqlString(req.path)} AS wh (READ_ONLY)`);
      // Unqualified names resolve in the attached warehouse (and its configured schema).
      await conn.run(req.schema ? `USE wh.${ident(req.schema)}` : 'USE wh');
    }
    // The export folder holds only the CSV file: the session may write there and nowhere else.
    const dirs = [...(req.allowedDirectories ?? []), ...(req.exportDirectory ? [req.exportDirectory] : [])].map(sqlString).join(', ');
    await conn.run(`SET allowed_directories = [${dirs}]`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
  } catch (err) {
    conn.closeSync();
    instance.closeSync();
    throw new EngineError('unavailable', `Could not open the DuckDB warehouse: ${messageOf(err)}`);
  }
  return new DuckDbSession(instance, conn, req.schema ?? 'main', steps);
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
    private readonly instance: DuckDBInstance,
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

  async query(sql: string, batchSize: number): Promise<ColumnMeta[]> {
    await this.release();
    this.steps.reset();
    let result: DuckDBResult;
    try {
      result = await this.conn.stream(sql);
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
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
