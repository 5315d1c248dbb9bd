// The SQL of the event log: a run's events after an id, and a batch of events stored as few
// multi-row INSERTs in one transaction. Row counts are cut in powers of two (at most MAX_ROWS a
// statement), so a handful of statement texts serve every batch size: each is compiled once per
// dialect and prepared once on SQLite, and a batch costs a few statements (round trips on PostgreSQL)
// rather than one per event.
import { CompiledQuery, type Compilable } from 'kysely';
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

const COLUMNS = ['id', 'run_id', 'type', 'data', 'created_at'] as const;
/** The INSERT of n rows as each executor's dialect spells it, compiled once per size (the hot path pays no query building). */
const insertTexts = new WeakMap<AgentStore, Map<number, string>>();

function insertText(x: AgentStore, rows: number): string {
  let bySize = insertTexts.get(x);
  if (!bySize) insertTexts.set(x, (bySize = new Map()));
  let text = bySize.get(rows);
  if (text === undefined) {
    const row = Object.fromEntries(COLUMNS.map((c) => [c, null])) as never;
    bySize.set(rows, (text = x.db.insertInto('agent_events').values(Array.from({ length: rows }, () => row)).compile().sql));
  }
  return text;
}

function insertQuery(x: AgentStore, events: StoredEvent[]): Compilable<unknown> {
  const parameters = events.flatMap((e) => [e.id, e.run_id, e.event.type, eventJson(e.event), e.created_at]);
  const text = insertText(x, events.length);
  return { compile: () => CompiledQuery.raw(text, parameters) };
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
