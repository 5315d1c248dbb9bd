// The Driver of the file warehouses (SQLite, DuckDB): the session lives in a query process leased
// for the driver's lifetime, so no statement ever runs on the gateway's event loop, and stopping
// one (its budget spent, its caller gone) is a kill that always works. Rows come one batch ahead:
// the process works on the next batch while the caller reads this one, and that work counts
// against the budget as well.
import { setTimeout as delay } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { AppError } from '../../../errors.ts';
import { QueryFailed } from '../../errors.ts';
import { copyDuckDbCsv } from '../../export/copy-duckdb-csv.ts';
import { DEFAULT_BATCH, DEFAULT_QUERY_MEMORY_MB, DEFAULT_TIMEOUT_MS, type ColumnMeta, type ConnectionSettings, type CsvCopy, type Driver, type DriverContext, type IntrospectedTable, type RowStream, type StreamOptions } from '../driver.ts';
import { QueryBudget } from '../query-budget.ts';
import type { Engine } from './protocol.ts';
import { QueryProcessPool } from './query-process-pool.ts';
import type { QueryProcess } from './query-process.ts';

/** How long an early stop waits for the batch in the works before it ends the process instead. */
const EARLY_STOP_GRACE_MS = 100;
const CLOSE_GRACE_MS = 2000;

/** Leases a query process and opens the warehouse in it. */
export async function openProcessDriver(engine: Engine, settings: ConnectionSettings, ctx: DriverContext): Promise<Driver> {
  const timeoutMs = settings.statementTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Outside the gateway (a script, a test) a driver brings its own single process.
  const pool = ctx.queryProcesses ?? new QueryProcessPool({ max: 1, maxIdle: 0, memoryMb: DEFAULT_QUERY_MEMORY_MB });
  const own = !ctx.queryProcesses;
  const proc = await pool.lease({ owner: ctx.owner, waitMs: timeoutMs, signal: ctx.signal, engine, warehouse: settings.path });
  const budget = new QueryBudget({ timeoutMs, signal: ctx.signal, stop: () => proc.kill() });
  try {
    const { defaultSchema } = await budget.track(
      proc.call({ op: 'open', engine, path: settings.path, schema: settings.schema, allowedDirectories: ctx.allowedDirectories, exportDirectory: ctx.exportDirectory, threads: ctx.threads, maxRecursion: ctx.maxRecursion }),
    );
    return new ProcessDriver(engine, proc, pool, own, defaultSchema, timeoutMs, ctx.exportDirectory);
  } catch (err) {
    // A file that cannot be opened leaves a healthy process; a stop does not.
    pool.release(proc, proc.alive && proc.idle && !budget.stopReason);
    if (own) await pool.close();
    throw err;
  } finally {
    budget.dispose();
  }
}

class ProcessDriver implements Driver {
  readonly type: Engine;
  readonly dialect: Engine;
  private closed = false;
  constructor(
    engine: Engine,
    private readonly proc: QueryProcess,
    private readonly pool: QueryProcessPool,
    private readonly ownPool: boolean,
    readonly defaultSchema: string,
    private readonly timeoutMs: number,
    private readonly exportDirectory: string | undefined,
  ) {
    this.type = engine;
    this.dialect = engine;
  }

  async stream(sql: string, opts: StreamOptions = {}): Promise<RowStream> {
    const budget = this.budget(opts);
    let columns: ColumnMeta[];
    try {
      ({ columns } = await budget.track(this.proc.call({ op: 'query', sql, batchSize: opts.batchSize ?? DEFAULT_BATCH, params: opts.params })));
    } catch (err) {
      budget.dispose();
      throw err;
    }
    return { columns, batches: this.batches(budget) };
  }

  private async *batches(budget: QueryBudget): AsyncGenerator<unknown[][]> {
    const next = () => budget.track(this.proc.call({ op: 'next' }));
    let inFlight = next();
    let done = false;
    try {
      while (!done) {
        const r = await inFlight;
        done = r.done;
        if (!done) inFlight = next();
        const rows = JSON.parse(r.rows) as unknown[][];
        if (rows.length > 0) yield rows;
      }
    } finally {
      if (!done) await this.stopEarly(inFlight);
      budget.dispose();
    }
  }

  /** The reader stopped before the end: close the cursor if the process is free soon, else end it. */
  private async stopEarly(inFlight: Promise<unknown>): Promise<void> {
    const settled = await Promise.race([inFlight.then(() => true, () => true), delay(EARLY_STOP_GRACE_MS).then(() => false)]);
    if (!settled || !this.proc.alive) return this.proc.kill();
    await this.proc.call({ op: 'release' }).catch(() => this.proc.kill());
  }

  async introspect({ schemas }: { schemas?: string[] } = {}): Promise<IntrospectedTable[]> {
    return this.once(() => this.proc.call({ op: 'introspect', schemas }));
  }

  async ping(): Promise<void> {
    await this.once(() => this.proc.call({ op: 'ping' }));
  }

  async csvCopy(sql: string): Promise<CsvCopy> {
    const dir = this.exportDirectory;
    if (this.type !== 'duckdb' || !dir) throw new Error('This session was opened without an export directory');
    // Binding checks names and types now, so a bad query fails before the caller answers anything.
    const { columns, isSelect } = await this.once(() => this.proc.call({ op: 'describe', sql }));
    // The guard already allowed one SELECT only; this is the engine's own word on it.
    if (!isSelect) throw new QueryFailed('Only a SELECT can be exported');
    return { columns, run: (out, signal, timeoutMs) => this.copy(sql, columns, dir, out, { signal, timeoutMs }) };
  }

  private async copy(sql: string, columns: ColumnMeta[], dir: string, out: Writable, opts: { signal: AbortSignal | undefined; timeoutMs: number | undefined }) {
    const budget = this.budget(opts);
    // DuckDB writes the file at its own pace, never waiting for the reader: the whole COPY is warehouse time.
    const conn = { run: (statement: string) => budget.track(this.proc.call({ op: 'run', sql: statement })), interrupt: () => this.proc.kill() };
    try {
      return await copyDuckDbCsv({ conn, sql, columns, out, dir, newLine: 'crlf', end: false });
    } catch (err) {
      throw err instanceof AppError ? err : new QueryFailed((err as Error).message);
    } finally {
      budget.dispose();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let reusable = this.proc.alive && this.proc.idle;
    if (reusable) {
      // A session that does not close promptly is not worth keeping.
      reusable = await Promise.race([this.proc.call({ op: 'close' }).then(() => true, () => false), delay(CLOSE_GRACE_MS).then(() => false)]);
    }
    this.pool.release(this.proc, reusable);
    if (this.ownPool) await this.pool.close();
  }

  private budget(opts: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined }): QueryBudget {
    return new QueryBudget({ timeoutMs: opts.timeoutMs ?? this.timeoutMs, signal: opts.signal, stop: () => this.proc.kill() });
  }

  /** One request under the driver's own budget. */
  private async once<T>(call: () => Promise<T>): Promise<T> {
    const budget = this.budget({});
    try {
      return await budget.track(call());
    } finally {
      budget.dispose();
    }
  }
}
