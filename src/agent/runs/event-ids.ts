// Event ids unique across the processes that share a store. Each process takes blocks of ids from a
// counter row (agent_event_ids), so ids stay integers that increase within a process, and a run's
// events (all appended by the replica that owns it) increase with it: SSE `Last-Event-ID` resumes a
// run with `id > last` as before. A block costs one write, so blocks start small (a quiet process wastes
// few ids) and double up to MAX_BLOCK (a busy one reserves once per MAX_BLOCK events). The next block is
// reserved as soon as the current one is in use, so an event finds its id at hand (a reservation is a
// round trip on PostgreSQL) unless a burst spends a whole block before the next arrives.
import { sql } from 'kysely';
import type { AgentStore } from './tables.ts';

const MAX_BLOCK = 1024;

/**
 * Reserves `count` ids no process has been given; returns the last of them (the first is
 * `last - count + 1`). Every id reserved later, by any process, is higher. It is a write of its own:
 * inside a batch, a rollback would return the ids to the counter while they are in use.
 */
export async function reserveEventIds(x: AgentStore, count: number): Promise<number> {
  // The first reservation on a store without the row (a new PostgreSQL schema) starts after its highest id.
  const row = await x.one(sql<{ reserved_through: number }>`INSERT INTO agent_event_ids (id, reserved_through)
    SELECT 1, COALESCE(MAX(id), 0) + ${count} FROM agent_events WHERE true
    ON CONFLICT (id) DO UPDATE SET reserved_through = agent_event_ids.reserved_through + ${count}
    RETURNING reserved_through`);
  return row!.reserved_through;
}

/** The ids of one process, handed out in order from blocks reserved ahead of need. */
export class EventIds {
  private next = 1;
  private last = 0;
  /** The block reserved after the current one, when it has arrived. */
  private spare: { first: number; last: number } | undefined;
  private block = 1;
  private reserving: Promise<void> | undefined;

  constructor(private store: AgentStore) {}

  /** The next id, or undefined when none is at hand (`more()` settles when there is). */
  take(): number | undefined {
    if (this.next > this.last && this.spare) {
      ({ first: this.next, last: this.last } = this.spare);
      this.spare = undefined;
    }
    if (!this.spare) void this.more().catch(() => {});
    return this.next > this.last ? undefined : this.next++;
  }

  /** Reserves the spare block unless it is on hand or on its way; rejects when the store refuses. */
  more(): Promise<void> {
    if (this.spare) return Promise.resolve();
    return (this.reserving ??= this.reserve().finally(() => (this.reserving = undefined)));
  }

  private async reserve(): Promise<void> {
    const count = this.block;
    const last = await reserveEventIds(this.store, count);
    this.block = Math.min(this.block * 2, MAX_BLOCK);
    this.spare = { first: last - count + 1, last };
  }
}
