// Where a chat session's uploads live, and how uploaded names become safe file names there.
import { lstat, readdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { ValidationFailed } from '../../errors.ts';

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface UploadSession {
  orgId: string;
  userId: string;
  /** The chat the files belong to; without one they belong to the user's chat-less session. */
  chatId?: string;
}

/**
 * `<dataDir>/uploads/<org>/<user>__<chat>/` (or `<user>__session`). The user is part of the folder
 * name because chat ids are chosen by clients: another user naming the same chat id must not be able
 * to drop files into (or read them from) someone else's chat.
 */
export function uploadSessionDir(dataDir: string, s: UploadSession): string {
  const check = (value: string, field: string) => {
    if (!SAFE_ID.test(value)) throw new ValidationFailed([{ loc: ['body', field], msg: 'Use 1 to 128 letters, digits, _ or -', type: 'string_pattern_mismatch' }]);
    return value;
  };
  check(s.orgId, 'org_id');
  check(s.userId, 'user_id');
  const chat = s.chatId === undefined ? 'session' : check(s.chatId, 'chat_id');
  return join(resolve(dataDir), 'uploads', s.orgId, `${s.userId}__${chat}`);
}

/** True when `path` is `dir` itself or inside it (after resolving `..`). */
export function isInside(dir: string, path: string): boolean {
  const d = resolve(dir);
  const p = resolve(path);
  return p === d || p.startsWith(d + sep);
}

// Characters that are unsafe or awkward in file names on some system, and control characters.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;

/** A safe single path segment from an uploaded name: no separators, no leading dots, at most 120 chars. */
export function safeFileName(name: string, fallback = 'file'): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  let cleaned = base.normalize('NFC').replace(UNSAFE, '_').replace(/^[.\s]+/, '').trim();
  if (cleaned.length > 120) {
    const dot = cleaned.lastIndexOf('.');
    const ext = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : '';
    cleaned = cleaned.slice(0, 120 - ext.length) + ext;
  }
  return cleaned || fallback;
}

/** `name`, or `name-2.ext`, `name-3.ext`... : the first that `taken` does not hold. */
export function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 2; ; i++) {
    const candidate = `${stem}-${i}${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Total bytes of regular files under `dir` (0 when it does not exist); links are not followed. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += (await lstat(p)).size;
  }
  return total;
}
