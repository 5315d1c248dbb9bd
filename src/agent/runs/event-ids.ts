// Event ids unique across the processes that share a store. Each process takes blocks of ids from a
// counter row (agent_event_ids), so ids stay integers that increase within a process, and a run's
// events (all appended by the replica that owns it) increase with it: SSE `Last-Event-ID` resumes a
// run with `id > last` as before. A block costs one write, so blocks start small (a quiet process wastes
// few ids) and double up to MAX_BLOCK (a busy one reserves once per MAX_BLOCK events).
import { statement, type Db } from '../../store/index.ts';

const MAX_BLOCK = 1024;
// The first reservation on a store without the row (a new PostgreSQL schema) starts after its highest id.
const RESERVE = `INSERT INTO agent_event_ids (id, reserved_through)
  SELECT 1, COALESCE(MAX(id), 0) + ? FROM agent_events WHERE true
  ON CONFLICT (id) DO UPDATE SET reserved_through = agent_event_ids.reserved_through + ?
  RETURNING reserved_through`;

/**
 * Reserves `count` ids no process has been given; returns the last of them (the first is
 * `last - count + 1`). Every id reserved later, by any process, is higher. It is a write of its own:
 * called inside a transaction, a rollback would return the ids to the counter while they are in use.
 */
export function reserveEventIds(db: Db, count: number): number {
  const row = statement(db, RESERVE).get(count, count) as { reserved_through: number };
  return row.reserved_through;
}

/** The ids of one process, handed out in order from blocks reserved as they run out. */
export class EventIds {
  private next = 1;
  private last = 0;
  private block = 1;

  constructor(private db: Db) {}

  take(): number {
    if (this.next > this.last) {
      this.last = reserveEventIds(this.db, this.block);
      this.next = this.last - this.block + 1;
      this.block = Math.min(this.block * 2, MAX_BLOCK);
    }
    return this.next++;
  }
}
