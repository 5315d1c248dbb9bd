// Files the CLI downloads: written beside their final name and renamed once complete, so a cut
// download never leaves a file that looks whole, nor a partial one.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Writes `body` to `file` whole or not at all; a failed download rejects with its error, leaving nothing. */
export async function writeWhole(body: Readable, file: string): Promise<void> {
  const partial = join(dirname(file), `.${basename(file)}.part`);
  const out = createWriteStream(partial);
  try {
    await pipeline(body, out);
  } catch (err) {
    // A download cut at once fails while the file is still being opened: the open would create it
    // after its removal, so the removal waits for the stream to close.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, file);
}
