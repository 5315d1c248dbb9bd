// One server per data folder in SQLite mode: `<data>/sextant.lock` holds the pid of the process
// that serves the folder. Two servers on one SQLite file and one set of git repositories would each
// believe their in-memory state (branch tips, run registry, commit groups) is the only one.
// A lock left by a process that died (kill -9, a crash, a power cut) is taken over; the takeover is
// itself serialized by a second file created exclusively, so two servers starting together after a
// crash cannot both win.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'sextant.lock';
/** A takeover marker older than this was left by a process that died while taking over. */
const TAKEOVER_STALE_MS = 10_000;

/** A start-up failure, not a request's: storage knows no HTTP-facing AppError. */
export class DataDirLocked extends Error {
  readonly code = 'DATA_DIR_LOCKED';
  constructor(
    dir: string,
    readonly pid: number,
  ) {
    super(`Another Sextant process (pid ${pid}) serves the data folder ${dir} (lock file ${join(dir, LOCK_FILE)}). Stop it first, or give this server its own SEXTANT_DATA_DIR.`);
    this.name = 'DataDirLocked';
  }
}

export interface DataDirLock {
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): void;
}

/** Takes the data folder's lock for this process, or throws DataDirLocked naming the live holder. */
export function lockDataDir(dir: string, pid = process.pid): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  if (!createExclusive(file, pid)) takeOverIfStale(dir, file, pid);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (holderOf(file) === pid) unlinkSync(file);
    },
  };
}

function takeOverIfStale(dir: string, file: string, pid: number): void {
  const marker = `${file}.takeover`;
  if (!createExclusive(marker, pid)) {
    if (Date.now() - mtimeOf(marker) < TAKEOVER_STALE_MS) throw new DataDirLocked(dir, holderOf(marker) ?? 0);
    unlinkQuietly(marker);
    if (!createExclusive(marker, pid)) throw new DataDirLocked(dir, holderOf(marker) ?? 0);
  }
  try {
    // Read again under the marker: the holder may have changed since the first attempt.
    const holder = holderOf(file);
    if (holder !== undefined && holder !== pid && isAlive(holder)) throw new DataDirLocked(dir, holder);
    unlinkQuietly(file);
    if (!createExclusive(file, pid)) throw new DataDirLocked(dir, holderOf(file) ?? 0);
  } finally {
    unlinkQuietly(marker);
  }
}

/** Creates `file` holding `pid` only if it does not exist; false when it does. */
function createExclusive(file: string, pid: number): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid in a lock file; undefined when it is missing, empty or unreadable (a crash mid-write). */
function holderOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
