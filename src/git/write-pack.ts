// The blobs a commit of many files writes, as one pack and its index, the way `git fast-import` writes
// them: one file written and fsynced instead of a durable loose object per blob (a temporary file, a
// write, an fsync and a rename each: the first dbt import of 5,000 models spent most of its time in the
// kernel on those, issue 34). The objects are hashed and deflated as they come and held deflated
// (a pack's header counts its objects, so it is written once the count is known); `finish` writes the
// pack, then its index, each through a temporary name, an fsync and a rename, then fsyncs their folder,
// all before the commit's branch can move. A crash before that leaves at most a temporary file (removed
// by the start-up check) or a pack no ref reaches (harmless; `git gc` drops it). Readers find the pack
// as git does, by listing objects/pack (isomorphic-git lists it at each packed read, so other
// processes on the same data folder see it too). A few blobs are written loose as before: a pack per
// small commit would grow the number of packs every reader searches.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { buildPackIndex, packIndexOffsets, type PackEntry } from './pack-index.ts';
import type { GitRepo } from './repo.ts';
import { writeBlob as writeLooseBlob } from './write-blob.ts';

/** Fewer new blobs than this in one commit are written as loose objects, not as a pack. */
export const PACK_MIN_OBJECTS = 64;

/** zlib's fastest level, as for loose objects (write-object.ts): the level changes a pack's size, never an id. */
const PACK_COMPRESSION = { level: 1 };
const BLOB_TYPE = 3;

/** Where a commit's builder writes the blobs it names by id. */
export interface BlobSink {
  /** Adds a file's text as a blob; its id (git's SHA-1 of `blob <bytes>\0<text>`). */
  writeBlob(text: string): Promise<string>;
}

/** A BlobSink that writes its blobs when the commit's changes are known. */
export interface PackWriter extends BlobSink {
  /**
   * Writes the blobs added: as one pack and its index, durable with their folder, or as loose objects
   * when they are few. Returns the ids the pack's index lists, read back from disk (empty for loose ones).
   */
  finish(): Promise<Set<string>>;
}

/** A pack entry's header: its type and inflated size, 4 bits then 7 bits a byte, low bits first. */
function entryHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  for (let rest = Math.floor(size / 16); rest > 0; rest = Math.floor(rest / 128)) {
    bytes[bytes.length - 1]! |= 0x80;
    bytes.push(rest & 0x7f);
  }
  return Buffer.from(bytes);
}

/** Starts collecting a commit's blobs for `repo`. */
export function createPackWriter(repo: GitRepo): PackWriter {
  const seen = new Set<string>();
  // Texts until there are enough of them for a pack; then each blob's entry, deflated.
  let few: { oid: string; text: string }[] | undefined = [];
  const chunks: Buffer[] = [];
  const entries: PackEntry[] = [];
  let offset = 12;

  const pack = (oid: string, body: Buffer) => {
    const entry = Buffer.concat([entryHeader(BLOB_TYPE, body.length), deflateSync(body, PACK_COMPRESSION)]);
    entries.push({ oid, offset, crc: crc32(entry) });
    chunks.push(entry);
    offset += entry.length;
  };

  return {
    writeBlob(text) {
      const body = Buffer.from(text, 'utf8');
      const oid = createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
      if (seen.has(oid)) return Promise.resolve(oid);
      seen.add(oid);
      if (few) {
        few.push({ oid, text });
        if (few.length < PACK_MIN_OBJECTS) return Promise.resolve(oid);
        for (const f of few) pack(f.oid, Buffer.from(f.text, 'utf8'));
        few = undefined;
      } else pack(oid, body);
      return Promise.resolve(oid);
    },
    async finish() {
      if (few) {
        for (const f of few) await writeLooseBlob(repo, f.text);
        return new Set<string>();
      }
      return writePack(repo, chunks, entries);
    },
  };
}

/** Writes the pack and then its index durably; the ids its index lists, read back from disk. */
async function writePack(repo: GitRepo, chunks: Buffer[], entries: PackEntry[]): Promise<Set<string>> {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  // Its trailer is the SHA-1 of all that precedes it.
  const file = Buffer.concat([header, ...chunks, Buffer.alloc(20)]);
  const trailer = file.length - 20;
  createHash('sha1').update(file.subarray(0, trailer)).digest().copy(file, trailer);
  const packSha = file.toString('hex', trailer);
  const dir = join(repo.gitdir, 'objects', 'pack');
  const base = join(dir, `pack-${packSha}`);
  await repo.dfs.io.mkdir(dir, { recursive: true });
  // The pack before its index: a reader takes an index for the promise that its pack is whole.
  await repo.dfs.writeAtomic(`${base}.pack`, file, 0o444);
  await repo.dfs.writeAtomic(`${base}.idx`, buildPackIndex(entries, packSha), 0o444);
  await repo.dfs.syncDirs([dir]);
  const size = (await repo.dfs.io.stat(`${base}.pack`)).size;
  if (size !== file.length) throw new Error(`pack-${packSha}.pack does not read back`);
  return new Set(packIndexOffsets((await repo.dfs.io.readFile(`${base}.idx`)) as Buffer, packSha).keys());
}
