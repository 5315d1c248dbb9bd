// One query process as the gateway sees it: a child Node.js process running process-main, asked one
// request at a time over IPC, and killed outright (SIGKILL) when a query must stop. A kill is the
// only stop that always works: a SQLite step or a DuckDB vector holds its thread until it is done.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryFailed, QueryMemoryExceeded, WarehouseUnavailable } from '../../errors.ts';
import { MEMORY_LIMIT_MARK, type Engine, type Replies, type Reply, type Request } from './protocol.ts';

const STDERR_TAIL = 4096;

export interface QueryProcessOptions {
  /** The script to run: processEntry(). */
  entry: string;
  /** Memory the process may hold; the watchdog ends it beyond. */
  memoryMb: number;
}

/** A running query process. */
export class QueryProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private stderr = '';
  private exitError: Error | undefined;
  private readonly tempDir: string;
  private gone = false;
  /** The engine the last session opened or warmed (its library stays loaded for the next). */
  engine: Engine | undefined;
  /** The warehouse file the last session opened: a DuckDB process keeps its instance for the next session over it. */
  warehouse: string | undefined;
  /** Settles when the process has ended (for any reason) and its temporary folder is gone. */
  readonly exited: Promise<void>;

  constructor(private readonly opts: QueryProcessOptions) {
    this.tempDir = mkdtempSync(join(tmpdir(), 'sextant-query-'));
    // No environment and no flags of the gateway's: nothing of it (secrets included) is in the engines' reach.
    this.child = fork(opts.entry, [`--memory-mb=${opts.memoryMb}`, `--temp=${this.tempDir}`], {
      execArgv: [],
      env: {},
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-STDERR_TAIL)));
    this.child.on('message', (m: Reply) => this.settle(m));
    this.exited = new Promise((resolve) => {
      const ended = () => {
        if (this.gone) return;
        this.gone = true;
        this.failAll();
        // DuckDB may have spilled gigabytes here: removed off the event loop, before `exited` settles.
        void rm(this.tempDir, { recursive: true, force: true }).catch(() => undefined).finally(resolve);
      };
      // 'close', not 'exit': the watchdog's mark on stderr may arrive after the exit itself.
      this.child.once('close', ended);
      this.child.once('error', (err) => {
        this.exitError ??= new WarehouseUnavailable(`Could not start a query process: ${err.message}`);
        if (this.child.pid === undefined) ended();
      });
    });
  }

  /** The operating system's id of the process. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True until the process has ended or was killed. */
  get alive(): boolean {
    return !this.gone && !this.child.killed && this.child.exitCode === null;
  }

  /** True when no request is waiting for its reply. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /** Sends one request; rejects with the engine's error, or when the process ends first. */
  call<K extends Request['op']>(req: Extract<Request, { op: K }>): Promise<Replies[K]> {
    if (!this.alive) return Promise.reject(this.endedError());
    const r: Request = req;
    if (r.op === 'open' || r.op === 'warm') this.engine = r.engine;
    if (r.op === 'open') this.warehouse = r.path;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, req }, (err) => {
        if (err) this.settle({ id, ok: false, error: { kind: 'unavailable', message: `The query process is gone: ${err.message}` } });
      });
    });
  }

  /** Ends the process now, whatever it is doing. */
  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  /** Whether the process keeps the gateway's event loop alive (only while it works for someone). */
  hold(held: boolean): void {
    const channel = this.child.channel as { ref?(): void; unref?(): void } | undefined;
    if (held) {
      this.child.ref();
      channel?.ref?.();
    } else {
      this.child.unref();
      channel?.unref?.();
    }
  }

  private settle(m: Reply): void {
    const waiter = this.pending.get(m.id);
    if (!waiter) return;
    this.pending.delete(m.id);
    if (m.ok) waiter.resolve(m.value);
    else waiter.reject(m.error.kind === 'unavailable' ? new WarehouseUnavailable(m.error.message) : new QueryFailed(m.error.message, m.error.kind === 'recursion_limit' ? 'QUERY_RECURSION_LIMIT' : 'QUERY_FAILED'));
  }

  private failAll(): void {
    const err = this.endedError();
    for (const w of this.pending.values()) w.reject(err);
    this.pending.clear();
  }

  private endedError(): Error {
    if (this.stderr.includes(MEMORY_LIMIT_MARK)) return new QueryMemoryExceeded(this.opts.memoryMb);
    if (this.exitError) return this.exitError;
    return new QueryFailed(this.child.killed ? 'The query session was stopped; a new query opens a new one' : 'The query process stopped before the query finished');
  }
}
