// The agent's event log with group commit. An event gets its id and joins the log at once, so it
// can be delivered at once; it reaches the store with every other event appended within FLUSH_MS, in
// one batch. A commit costs far more than an insert (on SQLite on this kind of disk ~80 µs against
// ~5 µs; on PostgreSQL a round trip), and hundreds of streaming runs append thousands of events a
// second, most of them in event-loop turns of their own. Until its commit an event is read from memory,
// so readers see the same log either way. A crash loses at most the last FLUSH_MS of events; the run is
// then failed as any interrupted run.
//
// Ids are assigned here rather than by the store, from blocks this process reserves in it (event-ids.ts):
// unique across the replicas sharing the store, increasing within a process and across restarts. In
// the rare turn that finds no id at hand, events wait for the next block, in order, and are delivered
// when it arrives.
import type { Logger } from '../../log.ts';
import type { AgentEvent, StoredEvent } from '../events.ts';
import { EventIds } from './event-ids.ts';
import { eventRows, insertEvents } from './event-rows.ts';
import type { RunRow } from './event-log.ts';
import type { AgentStore } from './tables.ts';

const FLUSH_MS = 10;

/** When the pending events are committed: FLUSH_MS after the first of them, unless a test says otherwise. */
export type FlushScheduler = (flush: () => void) => void;
const afterFlushDelay: FlushScheduler = (flush) => void setTimeout(flush, FLUSH_MS);

type Run = Pick<RunRow, 'id' | 'chat_id'>;
interface Waiting {
  run: Run;
  event: AgentEvent;
  at: number;
  resolve(e: StoredEvent): void;
  reject(err: unknown): void;
}

export class EventJournal {
  private ids: EventIds;
  /** Every event of this journal up to this id has left memory (committed, or lost with a failed batch). */
  private committedThrough = 0;
  /** Events with their ids, not yet committed: the batch being committed, then those after it. */
  private committing: StoredEvent[] = [];
  private pending: StoredEvent[] = [];
  /** Events appended while no id was at hand, in order, and what gives them their ids. */
  private waiting: Waiting[] = [];
  private assigning: Promise<void> = Promise.resolve();
  private scheduled = false;
  /** The last flush: one batch at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  /** Batches committed so far (readers of the store tell by it whether one landed during their read). */
  private commits = 0;
  /** Told of every event as it gets its id, in id order (live delivery in this process). */
  onAppend: (e: StoredEvent) => void = () => {};
  /** Told of every batch once committed (other replicas' followers get it then, see live-bus.ts). */
  onCommit: (batch: StoredEvent[]) => void = () => {};

  constructor(
    private store: AgentStore,
    private log: Logger,
    private schedule: FlushScheduler = afterFlushDelay,
  ) {
    this.ids = new EventIds(store);
  }

  /** Settles when ids are at hand (at start: the first events need not wait for them). */
  ready(): Promise<void> {
    return this.ids.more();
  }

  /**
   * Appends an event to the run's log; it is readable and delivered (onAppend) once it has its id,
   * at once unless ids ran out, and durable after the next flush. Rejects when no id can be reserved.
   */
  append(run: Run, event: AgentEvent, at: number): Promise<StoredEvent> {
    const id = this.waiting.length === 0 ? this.ids.take() : undefined;
    if (id !== undefined) return Promise.resolve(this.add({ id, run_id: run.id, chat_id: run.chat_id, created_at: at, event }));
    return new Promise((resolve, reject) => {
      this.waiting.push({ run, event, at, resolve, reject });
      if (this.waiting.length === 1) this.assigning = this.assignWaiting();
    });
  }

  private add(stored: StoredEvent): StoredEvent {
    this.pending.push(stored);
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => void this.flush());
    }
    this.onAppend(stored);
    return stored;
  }

  /** Gives the waiting events their ids as blocks arrive; with the store refusing, they are dropped. */
  private async assignWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      try {
        await this.ids.more();
      } catch (err) {
        this.log.warn({ err, events: this.waiting.length }, 'agent events not stored: no event ids');
        for (const w of this.waiting.splice(0)) w.reject(err);
        return;
      }
      for (let id = this.ids.take(); id !== undefined; id = this.waiting.length > 0 ? this.ids.take() : undefined) {
        const w = this.waiting.shift()!;
        w.resolve(this.add({ id, run_id: w.run.id, chat_id: w.run.chat_id, created_at: w.at, event: w.event }));
      }
    }
  }

  /**
   * Events of a run after an id, in order: committed ones from the store, then the ones in memory. For
   * a run of this process with events in memory, after an id not yet committed (a stream from a run's
   * start, in the turn that started it) only memory is read. Another replica's run is read from the store.
   */
  async after(run: Run, afterId: number): Promise<StoredEvent[]> {
    const inMemory = () => [...this.committing, ...this.pending].filter((e) => e.run_id === run.id && e.id > afterId);
    let memory = inMemory();
    if (afterId >= this.committedThrough && memory.length > 0) return memory;
    let stored: StoredEvent[] = [];
    for (let from = afterId; ; ) {
      const commits = this.commits;
      stored = stored.concat(await this.committedAfter(run, from));
      memory = inMemory();
      // A batch committed during the read left memory and may have missed the read: read past it again.
      if (this.commits === commits) break;
      from = stored.at(-1)?.id ?? afterId;
    }
    const last = stored.at(-1)?.id ?? afterId;
    return [...stored, ...memory.filter((e) => e.id > last)];
  }

  /** Committed events of a run after an id, read from the store only: the log of a run another replica writes. */
  async committedAfter(run: Run, afterId: number): Promise<StoredEvent[]> {
    return eventRows(this.store, run, afterId);
  }

  /**
   * Commits the pending events in one batch, after the batch before it. An event whose run is gone (its
   * chat was deleted meanwhile) is dropped alone; with the store closed (shutdown) the batch is lost
   * and logged.
   */
  flush(): Promise<void> {
    this.scheduled = false;
    this.flushing = this.flushing.then(() => this.commitPending());
    return this.flushing;
  }

  private async commitPending(): Promise<void> {
    // Events appended before the flush belong to it, those still waiting for ids too.
    await this.assigning;
    if (this.pending.length === 0) return;
    const batch = (this.committing = this.pending);
    this.pending = [];
    let stored: StoredEvent[] = [];
    try {
      stored = await insertEvents(this.store, batch);
    } catch (err) {
      this.log.warn({ err }, 'could not store agent events');
    }
    this.committing = [];
    this.committedThrough = batch.at(-1)!.id;
    this.commits++;
    if (stored.length < batch.length) this.log.warn({ events: batch.length - stored.length }, 'agent events not stored');
    // Only what is in the store goes to other replicas: their followers fill gaps from there.
    if (stored.length > 0) this.onCommit(stored);
  }
}
