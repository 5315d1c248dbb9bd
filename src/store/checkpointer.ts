// WAL checkpoints away from the event loop. SQLite's automatic checkpoint runs inside whichever commit
// crosses the threshold, and with it the fsyncs of the WAL and the database: on this kind of disk that
// stalled the service for hundreds of milliseconds now and then under load (agent runs commit every
// turn). Instead, a worker thread with its own connection runs PASSIVE checkpoints, which never block
// the service's readers or writer; SQLite then reuses the WAL from its start. The worker starts only
// once the WAL has grown past the threshold, so small and short-lived stores (tests) never start one.
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
parentPort.on('message', (m) => {
  if (m === 'close') { db.close(); parentPort.close(); return; }
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  parentPort.postMessage('done');
});
`;

export interface Checkpointer {
  /** Checks the WAL now and checkpoints it if it is past the threshold; settles when that is done. */
  check(): Promise<void>;
  /**
   * Stops checking. With a worker started, a promise that settles once it has closed its connection and
   * exited; without one, nothing to wait for, so a small store still closes at once.
   */
  stop(): Promise<void> | undefined;
}

/** Watches `file`'s WAL every `everyMs` and checkpoints it in a worker once it passes `thresholdBytes`. */
export function startCheckpointer(file: string, { everyMs = 1000, thresholdBytes = 4 * 1024 * 1024 } = {}): Checkpointer {
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const checkpoint = (w: Worker) =>
    new Promise<void>((resolve) => {
      const done = () => {
        w.off('message', done);
        w.off('error', failed);
        w.off('exit', failed);
        resolve();
      };
      // A worker that fails is dropped; the next check starts another.
      const failed = () => {
        worker = undefined;
        done();
      };
      w.on('message', done);
      w.once('error', failed);
      // A worker closed by stop() mid-checkpoint answers nothing more.
      w.once('exit', failed);
      w.postMessage('checkpoint');
    });
  const check = async () => {
    const size = await stat(`${file}-wal`).then((s) => s.size, () => 0);
    if (size < thresholdBytes || stopped) return;
    if (!worker) {
      worker = new Worker(WORKER, { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
      worker.unref();
    }
    await checkpoint(worker);
  };
  const once = () => (running ??= check().finally(() => (running = undefined)));
  const timer = setInterval(() => void once(), everyMs);
  timer.unref();
  return {
    check: once,
    stop() {
      stopped = true;
      clearInterval(timer);
      const w = worker;
      worker = undefined;
      if (!w) return undefined;
      // The worker's connection must be gone before the caller closes its own (the last connection
      // removes the WAL) or removes the folder: a worker still starting would otherwise open the
      // database after that, and write its WAL into a folder being deleted.
      return new Promise<void>((resolve) => {
        // Held until it exits: an unreferenced worker alone would let the process end with this pending.
        w.ref();
        w.once('exit', () => resolve());
        w.postMessage('close');
      });
    },
  };
}
