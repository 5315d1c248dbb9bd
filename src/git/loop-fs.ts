// The repository files' promise API on node:fs, answered in the caller's turn of the event loop
// wherever the call is a short system call on cached metadata or a small file, and through the
// thread pool only where it may wait on the disk (fsync) or read a large file (a pack). A knowledge
// write makes dozens of such calls one after another (refs, trees, loose objects, the lock, the
// reflog); each through the pool cost ~50 µs of CPU and, worse, a turn of the event loop, so that on
// a gateway busy with answers every step queued behind a whole turn of their work (issue 38: a write
// took 27x its quiet time while 4 analysts asked). What is durable is unchanged: every fsync is still
// made and awaited where durable-fs.ts asks for it; only when the other calls settle moves.
import * as fs from 'node:fs';
import type { FileHandle, FsPromises } from './durable-fs.ts';

/** Larger files are read through the thread pool: a pack read in the loop's turn would stall every request. */
const SYNC_READ_MAX = 256 * 1024;

/** The outcome of a synchronous call as the promise the promise API gives. */
function settled<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

function handleOf(fd: number): FileHandle {
  return {
    writeFile: (data) => settled(() => fs.writeFileSync(fd, data)),
    appendFile: (data) => settled(() => fs.appendFileSync(fd, data)),
    // The one call that waits on the disk: in the pool, so the loop serves others meanwhile.
    sync: () => new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve()))),
    close: () => settled(() => fs.closeSync(fd)),
  };
}

async function readFile(path: string, opts?: unknown): Promise<Buffer | string> {
  const options = opts as fs.ObjectEncodingOptions | BufferEncoding | undefined;
  if (fs.statSync(path).size > SYNC_READ_MAX) return fs.promises.readFile(path, options);
  return fs.readFileSync(path, options);
}

/** node:fs for a repository's files (see above); `{ promises }` as isomorphic-git and durable-fs.ts take it. */
export function loopFs(): { promises: FsPromises } {
  const promises: FsPromises = {
    readFile,
    writeFile: (path, data, opts) => settled(() => fs.writeFileSync(path, data as string | Uint8Array, opts as fs.WriteFileOptions)),
    mkdir: (path, opts) => settled(() => fs.mkdirSync(path, opts as fs.MakeDirectoryOptions)),
    rmdir: (path, opts) => settled(() => fs.rmdirSync(path, opts as fs.RmDirOptions)),
    unlink: (path) => settled(() => fs.unlinkSync(path)),
    // No caller asks for bigint times: the options of stat and lstat are not passed on.
    stat: (path) => settled(() => fs.statSync(path)),
    lstat: (path) => settled(() => fs.lstatSync(path)),
    readdir: (path, opts) => settled(() => fs.readdirSync(path, opts as fs.ObjectEncodingOptions) as string[]),
    readlink: (path, opts) => settled(() => fs.readlinkSync(path, opts as fs.ObjectEncodingOptions) as string),
    symlink: (target, path) => settled(() => fs.symlinkSync(target, path)),
    rename: (from, to) => settled(() => fs.renameSync(from, to)),
    open: (path, flags, mode) => settled(() => handleOf(fs.openSync(path, flags, mode))),
    // Removing a tree of folders may take long: through the pool.
    rm: (path, opts) => fs.promises.rm(path, opts as fs.RmOptions),
  };
  return { promises };
}
