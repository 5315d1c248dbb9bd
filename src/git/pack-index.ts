// A pack's index (git's .idx, version 2), written for a pack this service made and read back to check
// it: the ids sorted, a fan-out table of how many start with each first byte or less, a CRC-32 and an
// offset per object, the pack's checksum and the index's own. Offsets are 31 bits: a pack of 2 GB or
// more would need the large-offset table, which isomorphic-git cannot read either.
import { createHash } from 'node:crypto';

/** One object of a pack: its id, where its entry starts in the pack and the CRC-32 of the entry's bytes. */
export interface PackEntry {
  oid: string;
  offset: number;
  crc: number;
}

/** A pack as read (read-packed.ts): where each object's entry starts and ends, and the file's bytes. */
export interface LoadedPack {
  entries: Map<string, { start: number; end: number }>;
  file: Buffer;
}

const MAGIC = Buffer.from([0xff, 0x74, 0x4f, 0x63]);
const MAX_OFFSET = 0x7fffffff;

/** The .idx of a pack whose trailing checksum is `packSha` (hex). */
export function buildPackIndex(entries: PackEntry[], packSha: string): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const n = sorted.length;
  const out = Buffer.alloc(8 + 256 * 4 + n * 28 + 40);
  MAGIC.copy(out, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Array<number>(256).fill(0);
  for (const e of sorted) fanout[parseInt(e.oid.slice(0, 2), 16)]!++;
  let running = 0;
  for (let i = 0; i < 256; i++) out.writeUInt32BE((running += fanout[i]!), 8 + i * 4);
  const ids = 8 + 256 * 4;
  const crcs = ids + n * 20;
  const offsets = crcs + n * 4;
  for (const [i, e] of sorted.entries()) {
    if (e.offset > MAX_OFFSET) throw new Error('a pack of 2 GB or more is not written');
    out.write(e.oid, ids + i * 20, 'hex');
    out.writeUInt32BE(e.crc >>> 0, crcs + i * 4);
    out.writeUInt32BE(e.offset, offsets + i * 4);
  }
  const trailer = offsets + n * 4;
  out.write(packSha, trailer, 'hex');
  createHash('sha1').update(out.subarray(0, trailer + 20)).digest().copy(out, trailer + 20);
  return out;
}

/**
 * Where each object a pack's index lists starts in its pack, when it is a whole version 2 index (its
 * own checksum holds) of the pack whose checksum is `packSha`; throws otherwise, and for a pack of 2 GB
 * or more (large offsets).
 */
export function packIndexOffsets(idx: Buffer, packSha: string): Map<string, number> {
  if (idx.length < 8 + 256 * 4 + 40 || !idx.subarray(0, 4).equals(MAGIC) || idx.readUInt32BE(4) !== 2) throw new Error('not a version 2 pack index');
  const n = idx.readUInt32BE(8 + 255 * 4);
  const ids = 8 + 256 * 4;
  const offsets = ids + n * 24;
  const trailer = ids + n * 28;
  if (idx.length !== trailer + 40) throw new Error('a pack index of the wrong length');
  if (!createHash('sha1').update(idx.subarray(0, trailer + 20)).digest().equals(idx.subarray(trailer + 20))) throw new Error('a pack index whose checksum does not hold');
  if (idx.toString('hex', trailer, trailer + 20) !== packSha) throw new Error('a pack index of another pack');
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const offset = idx.readUInt32BE(offsets + i * 4);
    if (offset > MAX_OFFSET) throw new Error('a pack of 2 GB or more');
    out.set(idx.toString('hex', ids + i * 20, ids + i * 20 + 20), offset);
  }
  return out;
}
