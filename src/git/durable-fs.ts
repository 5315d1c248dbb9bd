// The file system isomorphic-git writes through, made crash-safe the way git's own
// `core.fsyncMethod=batch` is: every file is written to a temporary name and renamed into place, so a
// `kill -9` never leaves a torn file under a real name. Loose objects are written to their temporary
// name at once but fsynced and renamed in one batch by `flush()`, which the ref writer calls before a
// branch moves: one round of parallel fsyncs per commit instead of one fsync per object. Until then
// reads and existence checks see the pending file. An existing object that is empty or does not hash
// to its name (a torn write from before, a disk fault) counts as absent, so writing it again repairs it,
// and reading it throws ObjectDamaged (503 REPOSITORY_DAMAGED), never a decompression error.
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { FsClient } from 'isomorphic-git';
import { ObjectDamaged } from './errors.ts';

/** The promise API of `node:fs` (or memfs) that the repository files are written with. */
export interface FsPromises {
  readFile(path: string, opts?: unknown): Promise<Buffer | string>;
  writeFile(path: string, data: unknown, opts?: unknown): Promise<void>;
  mkdir(path: string, opts?: unknown): Promise<unknown>;
  rmdir(path: string, opts?: unknown): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string, opts?: unknown): Promise<{ size: number; mtimeMs: number; isDirectory(): boolean }>;
  lstat(path: string, opts?: unknown): Promise<{ size: number; isDirectory(): boolean }>;
  readdir(path: string, opts?: unknown): Promise<string[]>;
  readlink(path: string, opts?: unknown): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  rm?(path: string, opts?: unknown): Promise<void>;
}

export interface FileHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  appendFile?(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** A repository's file system: what isomorphic-git is given, plus the batch flush of loose objects. */
export interface DurableFs {
  /** Passed to isomorphic-git as `fs`. */
  client: FsClient;
  /** The underlying promise API (ref writer, integrity check). */
  io: FsPromises;
  /** Fsyncs and renames every loose object written so far; their folders are fsynced by `syncDirs`. */
  flush(): Promise<string[]>;
  /** Fsyncs folders (best effort: some file systems cannot open a folder). */
  syncDirs(dirs: Iterable<string>): Promise<void>;
  /** Writes a file atomically: temporary name, fsync, rename. */
  writeAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void>;
  /**
   * The loose object at `path` inflated (header and body), pending or not, checked to hash to `oid`
   * (ObjectDamaged when it does not); rejects with ENOENT when there is no such loose object.
   */
  readObject(path: string, oid: string): Promise<Buffer>;
}

const OBJECT_PATH = /[/\\]objects[/\\]([0-9a-f]{2})[/\\]([0-9a-f]{38})$/;
let counter = 0;
const tmpName = (dir: string, prefix: string) => `${dir}/${prefix}${process.pid}_${Date.now().toString(36)}_${(counter++).toString(36)}`;

/** The inflated object when `data` is a deflated git object that hashes to `oid`; undefined otherwise. */
function inflatedIfSound(oid: string, data: Uint8Array): Buffer | undefined {
  if (data.length === 0) return undefined;
  try {
    const object = inflateSync(data);
    return createHash('sha1').update(object).digest('hex') === oid ? object : undefined;
  } catch {
    return undefined;
  }
}

/** True when `data` is a deflated git object that hashes to `oid`. */
export function isSoundObject(oid: string, data: Uint8Array): boolean {
  return inflatedIfSound(oid, data) !== undefined;
}

function enoent(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, stat '${path}'`), { code: 'ENOENT', errno: -2, path });
}

/** Writes a temporary file, fsyncs it and renames it over `path`. */
async function writeFileDurably(io: FsPromises, path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const tmp = tmpName(dirname(path), 'tmp_');
  const h = await io.open(tmp, 'wx', mode);
  try {
    await h.writeFile(data);
    await h.sync();
  } finally {
    await h.close();
  }
  await io.rename(tmp, path);
}

/** fsyncs a file or a folder. */
async function syncPath(io: FsPromises, path: string): Promise<void> {
  const h = await io.open(path, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** fsyncs and renames the pending loose objects; returns the folders that gained one (to fsync next). */
async function flushPending(io: FsPromises, pending: Map<string, string>, syncFile: (path: string) => Promise<void>): Promise<string[]> {
  const batch = [...pending];
  if (batch.length === 0) return [];
  try {
    await Promise.all(batch.map(([, tmp]) => syncFile(tmp)));
    await Promise.all(batch.map(([path, tmp]) => io.rename(tmp, path)));
  } finally {
    // Flushed or failed (a temporary file removed from outside): either way no longer pending, so
    // the object counts as absent and is written again next time; a failed flush fails its write.
    for (const [path, tmp] of batch) if (pending.get(path) === tmp) pending.delete(path);
  }
  return [...new Set(batch.map(([path]) => dirname(path)))];
}

/** A loose object inflated and checked (pending or not): one inflate and one hash, in the caller's turn. */
async function readCheckedObject(io: FsPromises, pending: Map<string, string>, path: string, oid: string): Promise<Buffer> {
  const tmp = pending.get(path);
  // A flush may rename the pending file while it is read: then it is under its real name.
  const data = (tmp ? await io.readFile(tmp).catch(() => io.readFile(path)) : await io.readFile(path)) as Buffer;
  const object = inflatedIfSound(oid, data);
  if (!object) throw new ObjectDamaged(oid);
  return object;
}

/** Wraps a file system (node:fs or memfs) so that repository writes survive a crash at any instant. */
export function createDurableFs(base: { promises: FsPromises }): DurableFs {
  const io = base.promises;
  // Loose objects written but not yet fsynced and renamed: final path -> temporary path.
  const pending = new Map<string, string>();

  const writeAtomic = (path: string, data: string | Uint8Array, mode = 0o644) => writeFileDurably(io, path, data, mode);
  const syncFile = (path: string) => syncPath(io, path);
  const syncDirs = async (dirs: Iterable<string>) => {
    await Promise.all([...new Set(dirs)].map((d) => syncFile(d).catch(() => undefined)));
  };

  async function statObject(path: string, oid: string, lstat: boolean) {
    const tmp = pending.get(path);
    if (tmp) return io.stat(tmp).catch(() => io.stat(path));
    const s = lstat ? await io.lstat(path) : await io.stat(path);
    if (!isSoundObject(oid, (await io.readFile(path)) as Buffer)) throw enoent(path);
    return s;
  }

  const promises = {
    ...bindAll(io),
    async readFile(path: string, opts?: unknown) {
      const tmp = pending.get(String(path));
      // A flush may rename the pending file while it is read: then it is under its real name.
      if (tmp) return io.readFile(tmp, opts).catch(() => io.readFile(path, opts));
      const data = await io.readFile(path, opts);
      const m = OBJECT_PATH.exec(String(path));
      if (m && Buffer.isBuffer(data) && !isSoundObject(m[1]! + m[2]!, data)) throw new ObjectDamaged(m[1]! + m[2]!);
      return data;
    },
    async stat(path: string, opts?: unknown) {
      const m = OBJECT_PATH.exec(String(path));
      return m ? statObject(String(path), m[1]! + m[2]!, false) : io.stat(path, opts);
    },
    async lstat(path: string, opts?: unknown) {
      const m = OBJECT_PATH.exec(String(path));
      return m ? statObject(String(path), m[1]! + m[2]!, true) : io.lstat(path, opts);
    },
    async writeFile(path: string, data: string | Uint8Array) {
      const p = String(path);
      if (!OBJECT_PATH.test(p)) return writeAtomic(p, data);
      if (pending.has(p)) return;
      // The temporary file becomes the object on flush.
      const tmp = tmpName(dirname(p), 'tmp_obj_');
      const h = await io.open(tmp, 'wx', 0o644);
      try {
        await h.writeFile(data);
      } finally {
        await h.close();
      }
      pending.set(p, tmp);
    },
  };

  const flush = () => flushPending(io, pending, syncFile);
  const readObject = (path: string, oid: string) => readCheckedObject(io, pending, path, oid);

  // isomorphic-git uses `promises` when it is an enumerable own property.
  return { client: { promises } as unknown as FsClient, io, flush, syncDirs, writeAtomic, readObject };
}

function bindAll(io: FsPromises): FsPromises {
  const out: Record<string, unknown> = {};
  for (const key of ['readFile', 'writeFile', 'mkdir', 'rmdir', 'unlink', 'stat', 'lstat', 'readdir', 'readlink', 'symlink', 'rename', 'open', 'rm'] as const) {
    const fn = (io as unknown as Record<string, unknown>)[key];
    if (typeof fn === 'function') out[key] = (fn as (...a: unknown[]) => unknown).bind(io);
  }
  return out as unknown as FsPromises;
}
