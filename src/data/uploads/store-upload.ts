// Stores one uploaded file in its chat session's folder, within the per-file and per-chat limits;
// ZIP archives are extracted (see extract-zip.ts) into a folder named after the archive.
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../clock.ts';
import { newId } from '../../security/index.ts';
import { ChatUploadLimitReached, UnsupportedFileType, UploadTooLarge } from './errors.ts';
import { extractZip, type ExtractedFile } from './extract-zip.ts';
import { detectKind, type FileKind } from './file-types.ts';
import type { UploadLimits } from './limits.ts';
import { folderBytes, safeFileName, uniqueName, uploadSessionDir, type UploadSession } from './session-dir.ts';

/** The interface's "uploaded file" (snake_case as on the wire), plus what an archive held. */
export interface UploadedFile {
  file_id: string;
  original_name: string;
  /** Name in the session's uploads folder (a folder for an extracted archive). */
  stored_name: string;
  /** Bytes stored (for an archive: extracted bytes). */
  size: number;
  /** `uploads/<stored_name>`: where the agent's sandbox sees it. */
  path_in_sandbox: string;
  kind: FileKind;
  /** Extracted files of an archive, paths relative to the sandbox. */
  files?: { path_in_sandbox: string; size: number; kind: FileKind }[];
  /** Archive entries left out because their type is not accepted. */
  skipped?: string[];
  created_at: number;
}

export interface IncomingFile {
  /** Where the multipart parser put the bytes; the caller deletes it afterwards. */
  tempPath: string;
  originalName: string;
  size: number;
}

export interface UploadStoreDeps {
  dataDir: string;
  limits: UploadLimits;
  clock: Clock;
}

export interface UploadStore {
  /** Stores `file` for the session and returns its record. */
  store(session: UploadSession, file: IncomingFile): Promise<UploadedFile>;
  /** Records of the session's uploads, oldest first. */
  list(session: UploadSession): Promise<UploadedFile[]>;
  /** The session's uploads folder (queryUploads runs there). */
  dir(session: UploadSession): string;
}

const MANIFEST = '.uploads.json';

/** Runs `fn` after the previous work under `key` settled. */
async function oneAtATime<T>(locks: Map<string, Promise<unknown>>, key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

/** Extracts an archive into a folder of its own, within what is left of the chat's quota. */
async function storeArchive(deps: UploadStoreDeps, folder: string, file: IncomingFile, used: number, taken: (n: string) => boolean, base: Pick<UploadedFile, 'file_id' | 'original_name' | 'kind' | 'created_at'>): Promise<UploadedFile> {
  const remaining = deps.limits.chatBytes - used;
  if (remaining <= 0) throw new ChatUploadLimitReached(deps.limits.chatBytes, used);
  const staging = join(folder, `.staging-${base.file_id}`);
  await mkdir(staging, { mode: 0o700 });
  try {
    const { files, skipped } = await extractZip(file.tempPath, staging, deps.limits.zip, remaining);
    const stored = uniqueName(safeFileName(file.originalName.replace(/\.zip$/i, ''), 'archive'), taken);
    await rename(staging, join(folder, stored));
    const size = files.reduce((n, f: ExtractedFile) => n + f.size, 0);
    return {
      ...base,
      stored_name: stored,
      size,
      path_in_sandbox: `uploads/${stored}/`,
      files: files.map((f) => ({ path_in_sandbox: `uploads/${stored}/${f.path}`, size: f.size, kind: f.kind })),
      ...(skipped.length ? { skipped } : {}),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Creates the upload store; one per service, it serializes writes per session folder. */
export function createUploadStore(deps: UploadStoreDeps): UploadStore {
  const locks = new Map<string, Promise<unknown>>();
  const dir = (s: UploadSession) => uploadSessionDir(deps.dataDir, s);

  // Quota checks and writes of one folder run one at a time, so two uploads cannot both fit the last megabyte.
  const locked = <T>(key: string, fn: () => Promise<T>) => oneAtATime(locks, key, fn);

  async function store(session: UploadSession, file: IncomingFile): Promise<UploadedFile> {
    if (file.size > deps.limits.fileBytes) throw new UploadTooLarge(deps.limits.fileBytes);
    const folder = dir(session);
    const kind = await detectKind(file.tempPath, file.originalName);
    if (!kind) throw new UnsupportedFileType(safeFileName(file.originalName));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return locked(folder, async () => {
      const used = await folderBytes(folder);
      const existing = new Set((await readdir(folder)).map((n) => n.toLowerCase()));
      const taken = (n: string) => existing.has(n.toLowerCase()) || n.startsWith('.');
      const fileId = newId();
      const base = { file_id: fileId, original_name: file.originalName, kind, created_at: deps.clock.now() };
      let record: UploadedFile;
      if (kind !== 'zip') {
        if (used + file.size > deps.limits.chatBytes) throw new ChatUploadLimitReached(deps.limits.chatBytes, used);
        const stored = uniqueName(safeFileName(file.originalName), taken);
        await copyFile(file.tempPath, join(folder, stored), constants.COPYFILE_EXCL);
        record = { ...base, stored_name: stored, size: file.size, path_in_sandbox: `uploads/${stored}` };
      } else {
        record = await storeArchive(deps, folder, file, used, taken, base);
      }
      await appendManifest(folder, record);
      return record;
    });
  }

  async function list(session: UploadSession): Promise<UploadedFile[]> {
    return readManifest(dir(session));
  }

  return { store, list, dir };
}

async function readManifest(folder: string): Promise<UploadedFile[]> {
  try {
    return JSON.parse(await readFile(join(folder, MANIFEST), 'utf8')) as UploadedFile[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function appendManifest(folder: string, record: UploadedFile): Promise<void> {
  const records = await readManifest(folder);
  records.push(record);
  const tmp = join(folder, `${MANIFEST}.${record.file_id}.tmp`);
  await writeFile(tmp, JSON.stringify(records), { mode: 0o600 });
  await rename(tmp, join(folder, MANIFEST));
}
