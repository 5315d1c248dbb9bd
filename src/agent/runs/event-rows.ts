// The SQL of the event log: a run's events after an id, and a batch of events stored as few
// multi-row INSERTs in one transaction. Row counts are cut in powers of two (at most MAX_ROWS a
// statement), so a handful of statement texts serve every batch size: each is prepared once on SQLite
// and a batch costs a few statements (round trips on PostgreSQL) rather than one per event.
import type { AgentEvent, StoredEvent } from '../events.ts';
import { eventJson } from '../events.ts';
import type { RunRow } from './event-log.ts';
import type { AgentStore } from './tables.ts';

const MAX_ROWS = 128;

type Run = Pick<RunRow, 'id' | 'chat_id'>;

/** A run's stored events after an id, in order. */
export async function eventRows(x: AgentStore, run: Run, afterId: number): Promise<StoredEvent[]> {
  const rows = await x.all(x.db.selectFrom('agent_events').select(['id', 'data', 'created_at']).where('run_id', '=', run.id).where('id', '>', afterId).orderBy('id'));
  return rows.map((r): StoredEvent => ({ id: r.id, run_id: run.id, chat_id: run.chat_id, created_at: r.created_at, event: JSON.parse(r.data) as AgentEvent }));
}

function insertQuery(x: AgentStore, events: StoredEvent[]) {
  return x.db.insertInto('agent_events').values(events.map((e) => ({ id: e.id, run_id: e.run_id, type: e.event.type, data: eventJson(e.event), created_at: e.created_at })));
}

/** The batch in statements of MAX_ROWS, then of the powers of two that make up the rest. */
function chunks(events: StoredEvent[]): StoredEvent[][] {
  const out: StoredEvent[][] = [];
  let i = 0;
  const take = (size: number) => {
    out.push(events.slice(i, i + size));
    i += size;
  };
  while (events.length - i >= MAX_ROWS) take(MAX_ROWS);
  for (let size = MAX_ROWS / 2; size >= 1; size /= 2) if (events.length - i >= size) take(size);
  return out;
}

/**
 * Stores events in one transaction; the events stored. When it fails (an event whose run is gone: its
 * chat was deleted meanwhile), each is stored alone, and only those refused are dropped.
 */
export async function insertEvents(x: AgentStore, events: StoredEvent[]): Promise<StoredEvent[]> {
  try {
    await x.batch(chunks(events).map((c) => insertQuery(x, c)));
    return events;
  } catch {
    const stored: StoredEvent[] = [];
    for (const e of events) {
      try {
        await x.run(insertQuery(x, [e]));
        stored.push(e);
      } catch {
        // Its run is gone; the store closed (the caller logs the count).
      }
    }
    return stored;
  }
}
