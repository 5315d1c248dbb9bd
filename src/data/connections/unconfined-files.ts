// Connections saved before per-organization warehouse folders may name a file in a shared folder.
// They are refused when opened; at start each one is named in the log, with where its file belongs,
// so that an operator can move the file (Sextant never moves an operator's file on its own).
import { isAbsolute, relative } from 'node:path';
import type { Logger } from '../../log.ts';
import { byteOrder } from '../../store/index.ts';
import { DRIVERS, type ConnectionType } from '../drivers/registry.ts';
import type { DataStore } from '../tables.ts';
import { orgWarehouseFolders } from './confine-path.ts';

/** One file connection whose stored path is outside its organization's folders. */
export interface UnconfinedConnection {
  orgId: string;
  connectionId: string;
  path: string;
  /** Where its file should be moved (the organization's folder under the first root). */
  folder: string | undefined;
}

/** File connections whose stored absolute path lies outside every folder of their organization. */
export async function listUnconfinedConnections(store: DataStore, roots: readonly string[]): Promise<UnconfinedConnection[]> {
  const fileTypes = (Object.keys(DRIVERS) as ConnectionType[]).filter((t) => DRIVERS[t].kind === 'file');
  const rows = await store.all(
    store.db.selectFrom('connections').select(['org_id', 'id', 'settings']).where('type', 'in', fileTypes).orderBy(byteOrder(store, 'org_id')).orderBy(byteOrder(store, 'id')),
  );
  const out: UnconfinedConnection[] = [];
  for (const r of rows) {
    const path = (JSON.parse(r.settings) as { path?: string }).path;
    if (!path || !isAbsolute(path)) continue;
    const folders = orgWarehouseFolders(roots, r.org_id);
    const inside = folders.some((f) => {
      const rel = relative(f, path);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    });
    if (!inside) out.push({ orgId: r.org_id, connectionId: r.id, path, folder: folders[0] });
  }
  return out;
}

/** Logs a warning per connection listUnconfinedConnections finds. */
export async function warnUnconfinedConnections(store: DataStore, roots: readonly string[], log: Logger): Promise<void> {
  for (const c of await listUnconfinedConnections(store, roots)) {
    log.warn(
      { org_id: c.orgId, connection_id: c.connectionId, path: c.path, folder: c.folder },
      "a warehouse connection names a file outside its organization's folder and is refused until the file is moved there and the connection saved with the relative path",
    );
  }
}
