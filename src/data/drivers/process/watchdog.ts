// The query process's own guard, on a thread of its own: the main thread may be inside one long
// engine call (a SQLite step runs to its end), yet this thread still sees the clock. It ends the
// process when the gateway that started it is gone (a `kill -9` leaves no one to stop the query)
// and when the process holds more memory than one query may, leaving a mark on stderr for the
// gateway to tell that end from its own kills.
import { Worker } from 'node:worker_threads';
import { MEMORY_LIMIT_MARK } from './protocol.ts';

const WATCH = `
const { workerData } = require('node:worker_threads');
const { rmSync, writeSync } = require('node:fs');
setInterval(() => {
  if (process.ppid !== workerData.ppid) {
    // No gateway is left to remove the process's temporary folder.
    rmSync(workerData.tempDir, { recursive: true, force: true });
    process.kill(process.pid, 'SIGKILL');
  }
  if (process.memoryUsage.rss() > workerData.maxRssBytes) {
    writeSync(2, workerData.mark + '\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}, workerData.everyMs);
`;

/** Starts the watchdog thread; it never keeps the process alive by itself. */
export function startWatchdog({ maxRssBytes, tempDir, everyMs = 20 }: { maxRssBytes: number; tempDir: string; everyMs?: number }): void {
  new Worker(WATCH, { eval: true, workerData: { ppid: process.ppid, maxRssBytes, tempDir, everyMs, mark: MEMORY_LIMIT_MARK } }).unref();
}
