// Warehouse files are confined per organization: each organization has its own folder under every
// configured root (`<root>/<org_id>/`), and a connection's `settings.path` is relative to it. The
// same check runs when a connection is saved (answering 422 on the field) and every time it is
// opened (after the file may have been swapped for a link), on the path with links resolved.
// Synchronous on purpose: saving a connection is synchronous, and opening one costs two system calls
// next to the milliseconds a warehouse takes to open.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError, ValidationFailed } from '../../errors.ts';
import { WarehouseUnavailable } from '../errors.ts';

/** Why a warehouse path was refused. */
export type PathRefusal = 'empty' | 'characters' | 'absolute' | 'parent' | 'organization' | 'outside' | 'dangling_link' | 'not_a_file' | 'hard_link' | 'unreadable';

const MESSAGES: Record<PathRefusal, string> = {
  empty: 'Field required for file warehouses',
  characters: 'Use a path of printable characters with / between folders (no backslashes)',
  absolute: "Give the path relative to the organization's warehouse folder, not an absolute path",
  parent: "The path may not leave the organization's warehouse folder (no .. segments)",
  organization: 'This organization cannot have warehouse files',
  outside: "The file resolves outside the organization's warehouse folder",
  dangling_link: 'The path is a link that leads nowhere',
  not_a_file: 'The path does not name a regular file',
  hard_link: 'The file has other hard links; copy it into the folder instead',
  unreadable: 'The path cannot be checked',
};

/** An opened connection's file failed the confinement check (it changed on disk since it was saved). */
export class WarehousePathRefused extends AppError {
  constructor(readonly reason: PathRefusal) {
    super('forbidden', 'WAREHOUSE_PATH_REFUSED', `The connection's warehouse file is refused: ${MESSAGES[reason]}`, { reason });
  }
}

// Organization ids are base64url; anything else (dots above all) never names a folder.
const ORG_FOLDER = /^[A-Za-z0-9_-]{1,128}$/;
// eslint-disable-next-line no-control-regex
const BAD_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

type Checked<T> = { ok: true; value: T } | { ok: false; reason: PathRefusal };
const refuse = (reason: PathRefusal): { ok: false; reason: PathRefusal } => ({ ok: false, reason });

/** `<root>/<org_id>` under each root, in order. */
export function orgWarehouseFolders(roots: readonly string[], orgId: string): string[] {
  return roots.map((r) => join(resolve(r), orgId));
}

/** The path as stored: relative, `/`-separated, without `.` segments; refused if it could leave the folder. */
function normalizeRelative(path: string): Checked<string> {
  if (BAD_CHARACTERS.test(path)) return refuse('characters');
  if (isAbsolute(path)) return refuse('absolute');
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return refuse('parent');
  if (segments.length === 0) return refuse('empty');
  return { ok: true, value: segments.join('/') };
}

const inside = (folder: string, path: string) => path.startsWith(folder + sep);
const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * The real path of `rel` in the first organization folder that holds it, checked: inside the folder
 * once links are resolved, a regular file, and no other hard link (which could be a name of another
 * organization's file). `undefined` when no folder holds it.
 */
function locate(folders: string[], rel: string): Checked<string | undefined> {
  for (const folder of folders) {
    const candidate = join(folder, rel);
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch (err) {
      if (code(err) === 'ELOOP') return refuse('dangling_link');
      if (code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') return refuse('unreadable');
      // A link whose target is missing exists itself: it must not wait there for a target to appear.
      if (exists(candidate)) return refuse('dangling_link');
      continue;
    }
    if (!inside(realpathSync.native(folder), real)) return refuse('outside');
    const stat = statSync(real);
    if (!stat.isFile()) return refuse('not_a_file');
    if (stat.nlink > 1) return refuse('hard_link');
    return { ok: true, value: real };
  }
  return { ok: true, value: undefined };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A path stored before confinement was absolute: it is accepted only inside the organization's own folder. */
function storedRelative(folders: string[], stored: string): Checked<string> {
  if (!isAbsolute(stored)) return normalizeRelative(stored);
  for (const folder of folders) {
    const rel = relative(folder, resolve(stored));
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return normalizeRelative(rel.split(sep).join('/'));
  }
  return refuse('outside');
}

/**
 * Checks `settings.path` of a file warehouse when a connection is saved and returns what to store
 * (the path relative to the organization's folder); a refusal is a 422 on the field. A file that does
 * not exist yet is accepted: opening checks again.
 */
export function confineWarehousePath(roots: readonly string[], orgId: string, path: string | undefined): string {
  const invalid = (reason: PathRefusal) => new ValidationFailed([{ loc: ['body', 'settings', 'path'], msg: MESSAGES[reason], type: 'value_error' }]);
  if (!path) throw invalid('empty');
  if (!ORG_FOLDER.test(orgId) || roots.length === 0) throw invalid('organization');
  const rel = normalizeRelative(path);
  if (!rel.ok) throw invalid(rel.reason);
  const found = locate(orgWarehouseFolders(roots, orgId), rel.value);
  if (!found.ok) throw invalid(found.reason);
  return rel.value;
}

/** The real path of a stored connection's file, checked again at open time; throws WarehousePathRefused or WarehouseUnavailable. */
export function resolveWarehouseFile(roots: readonly string[], orgId: string, stored: string | undefined): string {
  if (!stored || !ORG_FOLDER.test(orgId)) throw new WarehousePathRefused(stored ? 'organization' : 'empty');
  const folders = orgWarehouseFolders(roots, orgId);
  const rel = storedRelative(folders, stored);
  if (!rel.ok) throw new WarehousePathRefused(rel.reason);
  const found = locate(folders, rel.value);
  if (!found.ok) throw new WarehousePathRefused(found.reason);
  if (found.value === undefined) throw new WarehouseUnavailable(`The warehouse file ${rel.value} does not exist in the organization's warehouse folder`);
  return found.value;
}
