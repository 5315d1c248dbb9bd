// The agent's event log with group commit. An event gets its id and joins the log at once, so it
// can be delivered at once; it reaches SQLite with every other event appended within FLUSH_MS, in one
// transaction. A commit costs far more than an insert (on this kind of disk ~80 µs against ~5 µs), and
// hundreds of streaming runs append thousands of events a second, most of them in event-loop turns of
// their own. Until its commit an event is read from memory, so readers see the same log either way. A
// crash loses at most the last FLUSH_MS of events; the run is then marked failed at the next start, as
// any interrupted run.
//
// Ids are assigned here rather than by the store, from blocks this process reserves in it (event-ids.ts):
// unique across the replicas sharing the store, increasing within a process and across restarts.
import type { Logger } from '../../log.ts';
import { type Db, statement, transact } from '../../store/index.ts';
import { eventJson, type AgentEvent, type StoredEvent } from '../events.ts';
import { EventIds } from './event-ids.ts';
import type { RunRow } from './event-log.ts';

const INSERT = 'INSERT INTO agent_events (id, run_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)';
const AFTER = 'SELECT id, data, created_at FROM agent_events WHERE run_id = ? AND id > ? ORDER BY id';
const FLUSH_MS = 10;

/** Stores one event (with its id); throws when its run is gone. */
export function insertEvent(db: Db, e: StoredEvent): void {
  statement(db, INSERT).run(e.id, e.run_id, e.event.type, eventJson(e.event), e.created_at);
}

/** When the pending events are committed: FLUSH_MS after the first of them, unless a test says otherwise. */
export type FlushScheduler = (flush: () => void) => void;
const afterFlushDelay: FlushScheduler = (flush) => void setTimeout(flush, FLUSH_MS);

export class EventJournal {
  private ids: EventIds;
  /**
   * Every event of this journal up to this id has left memory (committed, or lost with a failed
   * batch). Before the first flush every event of this process's runs is still pending.
   */
  private committedThrough = 0;
  private pending: StoredEvent[] = [];
  private scheduled = false;
  /** Told of every batch once committed (other replicas' followers get it then, see live-bus.ts). */
  onCommit: (batch: StoredEvent[]) => void = () => {};

  constructor(
    private db: Db,
    private log: Logger,
    private schedule: FlushScheduler = afterFlushDelay,
  ) {
    this.ids = new EventIds(db);
  }

  /** Appends an event to the run's log; it is readable (and deliverable) at once, durable after the next flush. */
  append(run: Pick<RunRow, 'id' | 'chat_id'>, event: AgentEvent, at: number): StoredEvent {
    const stored: StoredEvent = { id: this.ids.take(), run_id: run.id, chat_id: run.chat_id, created_at: at, event };
    this.pending.push(stored);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
    return stored;
  }

  /**
   * Events of a run after an id, in order: committed ones from SQLite, then the pending ones. For a run
   * of this process with events in memory, after an id not yet committed (a stream from a run's start,
   * in the turn that started it) only memory is read. Another replica's run is read from the store.
   */
  after(run: Pick<RunRow, 'id' | 'chat_id'>, afterId: number): StoredEvent[] {
    const pending = this.pending.filter((e) => e.run_id === run.id && e.id > afterId);
    const committed = afterId >= this.committedThrough && pending.length > 0 ? [] : this.committedAfter(run, afterId);
    return [...committed, ...pending];
  }

  /** Committed events of a run after an id, read from the store only: the log of a run another replica writes. */
  committedAfter(run: Pick<RunRow, 'id' | 'chat_id'>, afterId: number): StoredEvent[] {
    const rows = statement(this.db, AFTER).all(run.id, afterId) as { id: number; data: string; created_at: number }[];
    return rows.map((r): StoredEvent => ({ id: r.id, run_id: run.id, chat_id: run.chat_id, created_at: r.created_at, event: JSON.parse(r.data) as AgentEvent }));
  }

  /**
   * Commits the pending events in one transaction. An event whose run is gone (its chat was deleted
   * meanwhile) is dropped alone; with the store closed (shutdown) the batch is lost and logged.
   */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.committedThrough = batch[batch.length - 1]!.id;
    let dropped = 0;
    try {
      const insert = statement(this.db, INSERT);
      transact(this.db, () => {
        for (const e of batch) {
          try {
            insert.run(e.id, e.run_id, e.event.type, eventJson(e.event), e.created_at);
          } catch {
            // A failed INSERT rolls back only itself; the rest of the batch commits.
            dropped++;
          }
        }
      });
    } catch (err) {
      dropped = batch.length;
      this.log.warn({ err }, 'could not store agent events');
    }
    if (dropped > 0) this.log.warn({ events: dropped }, 'agent events not stored');
    // Only what is in the store goes to other replicas: their followers fill gaps from there.
    if (dropped < batch.length) this.onCommit(batch);
  }
}
