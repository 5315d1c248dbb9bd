// Installations from before per-organization warehouse folders keep the demo warehouse in the shared
// folder (`<dataDir>/warehouse/demo.duckdb`), where any organization could name it. At start it moves
// into the demo organization's own folder and its connection is rewritten to the relative name.
// Idempotent and crash-safe: the file moves by rename (made durable before the row changes), an
// existing destination is never overwritten, and a run interrupted at any step finishes on the next.
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../log.ts';
import { orgWarehouseFolders } from '../connections/confine-path.ts';
import type { DataStore } from '../tables.ts';
import { DEMO_CONNECTION_ID } from './seed-demo-warehouse.ts';

export interface MoveDemoDeps {
  store: DataStore;
  clock: Clock;
  log: Logger;
  fileRoots: readonly string[];
}

/** Moves the demo connection's file into `<first root>/<orgId>/` when its stored path is an old absolute one. */
export async function moveDemoWarehouse(deps: MoveDemoDeps, orgId: string): Promise<void> {
  const { store } = deps;
  const row = await store.one(store.db.selectFrom('connections').select('settings').where('org_id', '=', orgId).where('id', '=', DEMO_CONNECTION_ID));
  const settings = row && (JSON.parse(row.settings) as { path?: string });
  if (!settings?.path || !isAbsolute(settings.path)) return;
  const folders = orgWarehouseFolders(deps.fileRoots, orgId);
  // Already inside one of the organization's folders: only the stored form changes.
  const within = folders.map((f) => relative(f, settings.path!)).find((rel) => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel));
  let stored = within?.split(sep).join('/');
  if (stored === undefined) {
    const folder = folders[0];
    if (!folder) {
      deps.log.warn({ org_id: orgId }, 'the demo warehouse cannot move into an organization folder: SEXTANT_WAREHOUSE_ROOTS is empty');
      return;
    }
    stored = basename(settings.path);
    const target = `${folder}${sep}${stored}`;
    mkdirSync(folder, { recursive: true });
    // The write-ahead log first: a crash between the two leaves the main file to move on the next start.
    for (const suffix of ['.wal', '']) moveFile(settings.path + suffix, target + suffix, deps.log);
    deps.log.info({ org_id: orgId, from: settings.path, to: target }, "moved the demo warehouse into the organization's folder");
  }
  // Only while the row still names the old path: an admin's save in the meantime wins.
  await store.run(
    store.db
      .updateTable('connections')
      .set({ settings: JSON.stringify({ ...settings, path: stored }), updated_at: deps.clock.now() })
      .where('org_id', '=', orgId)
      .where('id', '=', DEMO_CONNECTION_ID)
      .where('settings', '=', row!.settings),
  );
}

/** Renames `from` to `to` durably (copying across file systems); a missing source or an existing destination is left alone. */
function moveFile(from: string, to: string, log: Logger): void {
  if (!existsSync(from)) return;
  if (existsSync(to)) {
    log.warn({ from, to }, 'a file is already at the destination; the old one is left in place');
    return;
  }
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const partial = `${to}.moving`;
    rmSync(partial, { force: true });
    copyFileSync(from, partial, constants.COPYFILE_EXCL);
    fsyncPath(partial, 'r+');
    renameSync(partial, to);
    fsyncPath(dirname(to), 'r');
    unlinkSync(from);
  }
  fsyncPath(dirname(to), 'r');
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
