// Watching tables on the SQLite handle: temporary triggers (this connection only, gone when it
// closes) call back into JS on every write through it, whatever code made the write, the legacy
// synchronous statements included. One SQL function per handle dispatches to the listeners by table.
import type { Db } from './db.ts';
import type { WatchedTables } from './executor.ts';

const listeners = new WeakMap<Db, Map<string, Set<() => void>>>();

function registry(db: Db): Map<string, Set<() => void>> {
  let byTable = listeners.get(db);
  if (!byTable) {
    const created = new Map<string, Set<() => void>>();
    db.function('sextant_table_written', { deterministic: false }, (table: unknown) => {
      for (const listener of created.get(String(table)) ?? []) listener();
      return null;
    });
    listeners.set(db, (byTable = created));
  }
  return byTable;
}

/** Calls `changed` after every write through `db` that the triggers of `tables` catch. */
export function watchSqliteTables(db: Db, tables: WatchedTables, changed: () => void): void {
  const byTable = registry(db);
  for (const [table, on] of Object.entries(tables)) {
    const events = [
      ...(on.insert ? ['INSERT'] : []),
      on.update === true ? 'UPDATE' : `UPDATE OF ${on.update.join(', ')}`,
      ...(on.delete ? ['DELETE'] : []),
    ];
    // A watch with other columns gets triggers of its own (their names carry the event's text).
    for (const event of events) {
      const name = `sextant_w_${table}_${event.replace(/\W+/g, '_')}`;
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${name} AFTER ${event} ON main.${table} BEGIN SELECT sextant_table_written('${table}'); END`);
    }
    let set = byTable.get(table);
    if (!set) byTable.set(table, (set = new Set()));
    set.add(changed);
  }
}
