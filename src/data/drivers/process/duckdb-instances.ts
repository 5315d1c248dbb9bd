// The DuckDB instances of a query process. Opening a locked-down instance costs ~22 ms of CPU, most
// of a small question's warehouse time, so the last one stays open between sessions over the same
// warehouse file and settings, and each session gets a fresh connection on it. Of that, ~15 ms is
// DuckDB making the instance (its catalog of built-in functions), before any file is attached: a spare
// instance is made ahead, once a session has ended, so that the next open after the kept one closed
// (IDLE_MS; a person's next question usually comes later than that) only attaches and locks down.
// The spare has no file attached, no setting changed and no connection handed out.
//
// What a session could leave for the next one on a shared instance, and why it cannot [verified on
// @duckdb/node-api 1.5.6-r.1]:
// - Temp tables, views, macros, sequences; prepared statements; `SET VARIABLE`; `USE`/search_path;
//   PRAGMA enable_profiling: all belong to the connection and end with it.
// - Settings (`threads`, `memory_limit`, `temp_directory`, `allowed_directories`,
//   `enable_external_access`, `lock_configuration` itself): `lock_configuration` refuses every SET,
//   RESET and PRAGMA of them; they stay as the lock-down left them for the instance's life.
// - Catalogs: the warehouse is attached READ_ONLY, and the instance's own writable `memory` catalog
//   is detached at lock-down, so no table, view, macro, type or schema outlives a connection. Files
//   cannot be attached (external access is off), but `ATTACH ':memory:'` and `DETACH wh` can: the
//   attached databases are compared with the lock-down's after each session, and an instance that
//   differs is closed rather than reused.
// - Logging: `CALL enable_logging()` (also as `SELECT * FROM enable_logging(...)`) gets past
//   `lock_configuration` and would record the next sessions' SQL in `duckdb_logs` (or print it to
//   stdout). The gateway's guard refuses the function; here an instance whose logging is on, or whose
//   log holds anything, is closed after the session rather than reused.
// - Secrets: creating one fails once external access is off (the secret manager's folder is refused).
// - UDFs registered from JavaScript land in the instance's system catalog, not the connection's, and
//   registering the same name again replaces the function: each session registers the recursion cap's
//   step function (duckdb-session.ts) with its own counter and cap, replacing the previous session's,
//   and only one session uses an instance at once.
// - Spill files: the instance's temp folder is private to it (one warehouse file, one set of
//   settings). DuckDB removes its spill files when a query ends; a folder left non-empty closes the
//   instance. The empty folder is removed when the session closes and made again for the next one.
// - The warehouse file: the instance is keyed by the file's identity (device, inode, size, times,
//   and its WAL's), so a file replaced or rewritten opens a new instance that sees the new data. The
//   READ_ONLY attach holds a shared lock that a writer of the file waits for: an unused instance
//   closes after IDLE_MS.
// Sessions with a private export folder (CSV exports, which write) or without a warehouse file get an
// instance of their own, closed with the session, as before.
import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError, messageOf, type SessionLimits } from './engine-session.ts';
import type { OpenRequest } from './protocol.ts';

/** How long an instance nobody uses keeps the warehouse file open. */
const IDLE_MS = 1000;
/** DuckDB's threads per instance when the session does not say. */
const DEFAULT_THREADS = 2;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
/** What a session may not change for the next: the attached databases and the instance's logging. */
const STATE = `SELECT database_name, path, readonly FROM duckdb_databases()
  UNION ALL SELECT current_setting('enable_logging')::VARCHAR, current_setting('logging_storage'), (SELECT count(*) FROM duckdb_logs()) = 0`;

/** A session's connection on an instance; `close` ends the connection and gives the instance back. */
export interface DuckDbLease {
  conn: DuckDBConnection;
  close(): Promise<void>;
}

interface Held {
  key: string | undefined;
  instance: DuckDBInstance;
  /** The lock-down's connection: never given to a session, it checks the instance after each one. */
  admin: DuckDBConnection;
  /** STATE, prepared once on the admin connection, and what it gave right after the lock-down. */
  check: DuckDBPreparedStatement;
  state: string;
  tempDirectory: string;
  /** What the instance was made with, for the spare made after it. */
  threads: number;
  limits: SessionLimits;
  idle?: NodeJS.Timeout | undefined;
}

let kept: Held | undefined;

/** A new instance and its spill folder, not yet attached to anything or locked down. */
interface Blank {
  instance: DuckDBInstance;
  tempDirectory: string;
}

/**
 * The spares (see the notes above), one per thread count: questions open at two threads, CSV exports at
 * one or two (query/export-threads.ts), and a process serving both would otherwise make a spare the next
 * session cannot use.
 */
const spares = new Map<number, Promise<Blank | undefined>>();

/** Makes the spare for `threads` unless it is there or on its way (also when the process is warmed). */
export function prepareSpare(limits: SessionLimits, threads = DEFAULT_THREADS): Promise<void> {
  let made = spares.get(threads);
  if (!made) spares.set(threads, (made = createBlank(threads, limits).catch(() => undefined)));
  return made.then(() => undefined);
}

async function createBlank(threads: number, limits: SessionLimits): Promise<Blank> {
  const tempDirectory = mkdtempSync(join(limits.tempParent, 'session-'));
  try {
    const instance = await DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: String(threads),
      memory_limit: `${Math.floor(limits.engineBytes / 1024)}KiB`,
      temp_directory: tempDirectory,
      max_temp_directory_size: `${Math.floor(limits.tempBytes / 1024)}KiB`,
    });
    return { instance, tempDirectory };
  } catch (err) {
    rmSync(tempDirectory, { recursive: true, force: true });
    throw err;
  }
}

function closeBlank(blank: Blank | undefined): void {
  if (!blank) return;
  blank.instance.closeSync();
  rmSync(blank.tempDirectory, { recursive: true, force: true });
}

/** The spare for `threads` (it is then no longer a spare), else a new blank instance. */
async function takeBlank(threads: number, limits: SessionLimits): Promise<Blank> {
  const made = spares.get(threads);
  spares.delete(threads);
  return (await made) ?? createBlank(threads, limits);
}

/** A connection for one session, on the kept instance when it fits, else on a new one. */
export async function leaseDuckDb(req: OpenRequest, limits: SessionLimits): Promise<DuckDbLease> {
  const key = keyOf(req);
  let held: Held;
  if (kept && key !== undefined && kept.key === key) {
    held = kept;
    kept = undefined;
    clearTimeout(held.idle);
    mkdirSync(held.tempDirectory, { recursive: true });
  } else {
    discard(kept);
    kept = undefined;
    held = await openInstance(req, limits, key);
  }
  let conn: DuckDBConnection;
  try {
    conn = await held.instance.connect();
    // Unqualified names resolve in the attached warehouse (and its configured schema).
    if (req.path) await conn.run(req.schema ? `USE wh.${ident(req.schema)}` : 'USE wh');
  } catch (err) {
    discard(held);
    throw new EngineError('unavailable', `Could not open the DuckDB warehouse: ${messageOf(err)}`);
  }
  return { conn, close: () => giveBack(held, conn) };
}

/** What must match for an instance to serve a session: undefined when it may serve only this one. */
function keyOf(req: OpenRequest): string | undefined {
  if (!req.path || req.exportDirectory) return undefined;
  const identity = (path: string) => {
    try {
      const s = statSync(path);
      return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs];
    } catch {
      return null;
    }
  };
  return JSON.stringify([req.path, identity(req.path), identity(`${req.path}.wal`), req.schema ?? null, req.allowedDirectories ?? [], req.threads ?? DEFAULT_THREADS]);
}

/** A new in-memory instance that ATTACHes the warehouse READ_ONLY, then locks itself down (see notes). */
async function openInstance(req: OpenRequest, limits: SessionLimits, key: string | undefined): Promise<Held> {
  let blank: Blank | undefined;
  let admin: DuckDBConnection | undefined;
  try {
    blank = await takeBlank(req.threads ?? DEFAULT_THREADS, limits);
    const { instance, tempDirectory } = blank;
    mkdirSync(tempDirectory, { recursive: true });
    admin = await instance.connect();
    if (req.path) {
      await admin.run(`ATTACH ${sqlString(req.path)} AS wh (READ_ONLY)`);
      await admin.run('USE wh');
      // The only writable catalog a session could share with the next goes.
      await admin.run('DETACH memory');
    }
    // The export folder holds only the CSV file: the session may write there and nowhere else.
    const dirs = [...(req.allowedDirectories ?? []), ...(req.exportDirectory ? [req.exportDirectory] : [])].map(sqlString).join(', ');
    await admin.run(`SET allowed_directories = [${dirs}]`);
    await admin.run('SET enable_external_access = false');
    await admin.run('SET lock_configuration = true');
    const check = await admin.prepare(STATE);
    return { key, instance, admin, check, state: await stateOf(check), tempDirectory, threads: req.threads ?? DEFAULT_THREADS, limits };
  } catch (err) {
    admin?.closeSync();
    closeBlank(blank);
    throw new EngineError('unavailable', `Could not open the DuckDB warehouse: ${messageOf(err)}`);
  }
}

async function stateOf(check: DuckDBPreparedStatement): Promise<string> {
  return JSON.stringify((await check.runAndReadAll()).getRowsJson());
}

/** Ends the session's connection; keeps the instance for the next session when it is as the lock-down left it. */
async function giveBack(held: Held, conn: DuckDBConnection): Promise<void> {
  conn.closeSync();
  let clean = held.key !== undefined && isEmpty(held.tempDirectory);
  if (clean) clean = await stateOf(held.check).then((state) => state === held.state, () => false);
  if (!clean) discard(held);
  else {
    discard(kept);
    rmSync(held.tempDirectory, { recursive: true, force: true });
    held.idle = setTimeout(() => {
      if (kept === held) kept = undefined;
      discard(held);
    }, IDLE_MS);
    kept = held;
  }
  // After the session, not on its way: the spare is ready for whatever open comes next.
  void prepareSpare(held.limits, held.threads);
}

function isEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

function discard(held: Held | undefined): void {
  if (!held) return;
  clearTimeout(held.idle);
  held.check.destroySync();
  held.admin.closeSync();
  held.instance.closeSync();
  rmSync(held.tempDirectory, { recursive: true, force: true });
}
