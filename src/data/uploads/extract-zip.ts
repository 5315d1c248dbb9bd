// ZIP extraction that refuses hostile archives. The central directory is checked in full first
// (names, links, counts, sizes, ratios, encryption) so a refused archive writes nothing; extraction
// then counts real bytes as they stream, in case the directory lied, and recurses into nested
// archives up to a depth. The caller extracts into a fresh staging folder and discards it on failure.
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ArchiveRefused } from './errors.ts';
import { kindFromName, type FileKind } from './file-types.ts';
import type { ZipLimits } from './limits.ts';
import { isInside, safeFileName } from './session-dir.ts';

export interface ExtractedFile {
  /** Path below the extraction folder, `/`-separated. */
  path: string;
  size: number;
  kind: FileKind;
}

/** What remains of the limits across nested archives. */
interface Budget {
  entries: number;
  bytes: number;
}

interface PlannedEntry {
  entry: Entry;
  segments: string[];
  kind: FileKind;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** Below this size a high ratio is harmless (a column of zeros compresses well). */
const RATIO_MIN_BYTES = 1024 * 1024;
const JUNK = (segments: string[]) => segments[0] === '__MACOSX' || segments.at(-1) === '.DS_Store';

/** Extracts `zipPath` into `destDir` (which must be empty and private) and returns what was written. */
export async function extractZip(zipPath: string, destDir: string, limits: ZipLimits, maxBytes: number): Promise<{ files: ExtractedFile[]; skipped: string[] }> {
  const budget: Budget = { entries: limits.maxEntries, bytes: Math.min(limits.maxUncompressedBytes, maxBytes) };
  const files: ExtractedFile[] = [];
  const skipped: string[] = [];
  await extractLevel(zipPath, destDir, '', 0, limits, budget, files, skipped);
  return { files, skipped };
}

async function extractLevel(zipPath: string, destDir: string, prefix: string, depth: number, limits: ZipLimits, budget: Budget, files: ExtractedFile[], skipped: string[]): Promise<void> {
  const zip = await openZip(zipPath);
  try {
    const planned = await plan(zip, limits, budget, prefix, skipped);
    for (const p of planned) {
      const target = join(destDir, ...p.segments);
      if (!isInside(destDir, target)) throw new ArchiveRefused('path_traversal', p.entry.fileName);
      await mkdir(dirname(target), { recursive: true }).catch((err: NodeJS.ErrnoException) => {
        throw new ArchiveRefused('duplicate_entry', `${p.entry.fileName} (${err.code})`);
      });
      const written = await writeEntry(zip, p.entry, target);
      const path = [prefix, ...p.segments].filter(Boolean).join('/');
      if (p.kind !== 'zip') {
        files.push({ path, size: written, kind: p.kind });
        continue;
      }
      if (depth + 1 > limits.maxDepth) throw new ArchiveRefused('nesting_too_deep', `${path} is nested deeper than ${limits.maxDepth}`);
      // A nested archive becomes a folder of the same stem; its bytes count once, as extracted.
      budget.bytes += written;
      const folder = target.replace(/\.zip$/i, '');
      const folderPath = path.replace(/\.zip$/i, '');
      await mkdir(folder).catch(() => {
        throw new ArchiveRefused('duplicate_entry', folderPath);
      });
      await extractLevel(target, folder, folderPath, depth + 1, limits, budget, files, skipped);
      await rm(target);
    }
  } finally {
    zip.close();
  }
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(refusalOf(err));
      else resolve(zip);
    });
  });
}

/** yauzl validates names itself and stops with an error: keep its verdict, with our reason code. */
function refusalOf(err: unknown): ArchiveRefused {
  if (err instanceof ArchiveRefused) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/absolute path/.test(message)) return new ArchiveRefused('absolute_path', message);
  if (/invalid relative path/.test(message)) return new ArchiveRefused('path_traversal', message);
  if (/encrypted/i.test(message)) return new ArchiveRefused('encrypted', message);
  // yauzl's validateEntrySizes: the data inflates past (or short of) the declared size.
  if (/too many bytes|expected \d+\. got/i.test(message)) return new ArchiveRefused('too_much_data', message);
  return new ArchiveRefused('invalid_archive', message);
}

/** Reads the whole central directory and refuses the archive at the first bad entry. */
function plan(zip: ZipFile, limits: ZipLimits, budget: Budget, prefix: string, skipped: string[]): Promise<PlannedEntry[]> {
  return new Promise((resolve, reject) => {
    const planned: PlannedEntry[] = [];
    const seen = new Set<string>();
    const fail = (err: unknown) => {
      zip.removeAllListeners();
      reject(refusalOf(err));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(planned));
    zip.on('entry', (entry: Entry) => {
      try {
        const p = check(entry, limits, budget, seen);
        if (p && p.kind) planned.push(p as PlannedEntry);
        else if (p) skipped.push([prefix, p.entry.fileName].filter(Boolean).join('/'));
        zip.readEntry();
      } catch (err) {
        fail(err);
      }
    });
    zip.readEntry();
  });
}

function check(entry: Entry, limits: ZipLimits, budget: Budget, seen: Set<string>): (Omit<PlannedEntry, 'kind'> & { kind?: FileKind }) | undefined {
  const name = entry.fileName;
  if (--budget.entries < 0) throw new ArchiveRefused('too_many_entries', `more than ${limits.maxEntries} entries`);
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw new ArchiveRefused('absolute_path', name);
  const raw = name.split('/');
  if (raw.includes('..')) throw new ArchiveRefused('path_traversal', name);
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new ArchiveRefused('link', name);
  if (entry.generalPurposeBitFlag & 0x1) throw new ArchiveRefused('encrypted', name);
  if (name.endsWith('/')) return undefined;
  const size = entry.uncompressedSize;
  if (size > RATIO_MIN_BYTES && size / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
    throw new ArchiveRefused('compression_ratio', `${name} expands ${Math.round(size / Math.max(entry.compressedSize, 1))}:1`);
  }
  budget.bytes -= size;
  if (budget.bytes < 0) throw new ArchiveRefused('too_much_data', 'the archive expands beyond the allowed size');
  const segments = raw.filter((s) => s !== '' && s !== '.').map((s) => safeFileName(s));
  if (segments.length === 0) return undefined;
  const key = segments.join('/').toLowerCase();
  if (seen.has(key)) throw new ArchiveRefused('duplicate_entry', name);
  seen.add(key);
  if (JUNK(segments)) return { entry, segments };
  return { entry, segments, ...(kindFromName(segments.at(-1)!) ? { kind: kindFromName(segments.at(-1)!) } : {}) };
}

/** Streams one entry to `target`, failing if it grows past its declared size (already charged to the budget). */
async function writeEntry(zip: ZipFile, entry: Entry, target: string): Promise<number> {
  const source = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(refusalOf(err)) : resolve(stream)));
  });
  let written = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      written += chunk.length;
      if (written > entry.uncompressedSize) cb(new ArchiveRefused('too_much_data', `${entry.fileName} is larger than declared`));
      else cb(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new ArchiveRefused('duplicate_entry', entry.fileName);
    throw refusalOf(err);
  }
  return written;
}
