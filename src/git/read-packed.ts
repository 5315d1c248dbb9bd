// Objects read from packs with Node's zlib and SHA-1, in the caller's turn, as read-object.ts reads
// loose ones. Through isomorphic-git each packed read constructed its file system wrapper, listed the
// folder and inflated through a DecompressionStream: reading the 5,000 blobs of an imported pack took
// 1.1 to 1.7 s of CPU and 11 to 13 s of wall time on a loaded machine, against 0.2 to 0.4 s loose.
// A pack is found as git finds it, by listing objects/pack at each read (other processes add packs);
// its index is parsed once and its file read once (as isomorphic-git keeps it too), both checked
// against their checksums. Deltas (packs an operator's `git gc` or a clone left) are left to
// isomorphic-git: undefined here.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { ObjectDamaged } from './errors.ts';
import { packIndexOffsets, type LoadedPack } from './pack-index.ts';
import type { GitRepo } from './repo.ts';

const TYPES = ['', 'commit', 'tree', 'blob', 'tag'];

async function loadPack(repo: GitRepo, base: string): Promise<LoadedPack> {
  const idx = (await repo.dfs.io.readFile(`${base}.idx`)) as Buffer;
  const file = (await repo.dfs.io.readFile(`${base}.pack`)) as Buffer;
  const trailer = file.length - 20;
  const packSha = file.toString('hex', trailer);
  if (trailer < 12 || createHash('sha1').update(file.subarray(0, trailer)).digest('hex') !== packSha) throw new Error(`${base}.pack: its checksum does not hold`);
  const offsets = packIndexOffsets(idx, packSha);
  const starts = [...new Set(offsets.values())].sort((a, b) => a - b);
  const ends = new Map(starts.map((s, i) => [s, starts[i + 1] ?? trailer]));
  return { entries: new Map([...offsets].map(([oid, start]) => [oid, { start, end: ends.get(start)! }])), file };
}

/** The packs' names (pack-<sha>) in objects/pack now. */
async function packNames(repo: GitRepo): Promise<string[]> {
  const names = await repo.dfs.io.readdir(join(repo.gitdir, 'objects', 'pack')).catch(() => [] as string[]);
  return names.map(String).filter((n) => /^pack-[0-9a-f]{40}\.idx$/.test(n)).map((n) => n.slice(0, -4));
}

/**
 * The packed object's type and body; undefined when no pack holds it undeltified (isomorphic-git reads
 * the rest). With `known`, only packs read before are searched, without a file system call: an object's
 * bytes never change, so a pack in memory answers even once its file is gone.
 */
export async function readPacked(repo: GitRepo, oid: string, known = false): Promise<{ type: string; body: Buffer } | undefined> {
  const names = known ? [...repo.packs.keys()] : await packNames(repo);
  // A pack gone from the folder (an operator's `git gc` replaced it) is let go.
  if (!known) for (const kept of repo.packs.keys()) if (!names.includes(kept)) repo.packs.delete(kept);
  for (const name of names) {
    let pack = repo.packs.get(name);
    if (!pack) {
      const loading = loadPack(repo, join(repo.gitdir, 'objects', 'pack', name));
      repo.packs.set(name, (pack = loading));
      // A failed load (a pack being removed, a damaged one) is tried again next time.
      loading.catch(() => repo.packs.get(name) === loading && repo.packs.delete(name));
    }
    // A pack this cannot read (being removed, damaged, over 2 GB) is isomorphic-git's to read or to report.
    const loaded = await pack.catch(() => undefined);
    const at = loaded?.entries.get(oid);
    if (!at) continue;
    return objectAt(oid, loaded!.file, at.start, at.end);
  }
  return undefined;
}

/** Parses the entry at `start`: its type and size, then its deflated body, checked to hash to `oid`. */
function objectAt(oid: string, file: Buffer, start: number, end: number): { type: string; body: Buffer } | undefined {
  let byte = file[start]!;
  const type = TYPES[(byte >> 4) & 7];
  let size = byte & 0x0f;
  let at = start + 1;
  for (let shift = 4; byte & 0x80; shift += 7) {
    byte = file[at++]!;
    size += (byte & 0x7f) * 2 ** shift;
  }
  if (!type) return undefined;
  let body: Buffer;
  try {
    body = inflateSync(file.subarray(at, end));
  } catch {
    throw new ObjectDamaged(oid);
  }
  if (body.length !== size || createHash('sha1').update(`${type} ${size}\0`).update(body).digest('hex') !== oid) throw new ObjectDamaged(oid);
  return { type, body };
}
