import type { Writable } from 'node:stream';
import { AppError } from '../../errors.ts';

/** The destination closed or failed before the export was complete (a client that went away). */
export class ExportAborted extends AppError {
  constructor(reason = 'The destination closed before the export finished') {
    super('bad_request', 'EXPORT_ABORTED', reason);
  }
}

/** Resolves when `stream` wants more data; rejects if it (or `dest`, the final destination) errors or closes first. */
export function drained(stream: Writable, dest: Writable = stream): Promise<void> {
  return new Promise((resolve, reject) => {
    const watched = dest === stream ? [stream] : [stream, dest];
    const done = (err?: Error) => {
      stream.off('drain', onDrain);
      for (const w of watched) {
        w.off('error', onError);
        w.off('close', onClose);
      }
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (err: Error) => done(err);
    const onClose = () => done(new ExportAborted());
    stream.on('drain', onDrain);
    for (const w of watched) {
      w.on('error', onError);
      w.on('close', onClose);
    }
  });
}

/** Resolves once everything written to `out` is flushed. */
export function finished(out: Writable): Promise<void> {
  if (out.writableFinished) return Promise.resolve();
  return new Promise((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.once('close', () => (out.writableFinished ? resolve() : reject(new ExportAborted())));
  });
}

/** Fails fast when the destination is already gone. */
export function assertWritable(out: Writable): void {
  if (out.destroyed || out.writableEnded) throw new ExportAborted();
}
