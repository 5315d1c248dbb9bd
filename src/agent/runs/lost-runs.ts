// Runs whose replica is lost (it died, or cannot reach the store): any replica's sweep fails them, so
// the chat stays usable and the followers' streams end instead of hanging. Each lost run is claimed with
// a conditional UPDATE; only the replica whose claim changed the row writes its end, in the same
// batch (the claim required): the `error` event (REPLICA_LOST), `completed` with status failed and the answer stored
// as interrupted (never `completed` with the partial text, which the lost replica may not have stored).
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../log.ts';
import { eventJson, type StoredEvent } from '../events.ts';
import type { ChatRecorder } from '../ports.ts';
import { reserveEventIds } from './event-ids.ts';
import type { RunRow } from './event-log.ts';
import { claimLostRunQuery, staleRuns } from './run-owners.ts';
import type { AgentStore } from './tables.ts';

/** The stable code of the `error` event that ends a run whose replica was lost. */
export const REPLICA_LOST = 'REPLICA_LOST';
/** The answer stored for a run whose replica was lost. */
export const LOST_ANSWER = 'The answer was interrupted: the service process running it stopped. Please ask again.';

export interface LostRunsDeps {
  store: AgentStore;
  clock: Clock;
  log: Logger;
  chats: ChatRecorder;
  /** This replica: its own runs are never lost to it. */
  replicaId: string;
  /** A run whose heartbeat is older than this is lost. */
  lostAfterMs: number;
}

/** Whether a stored event is one of those that end a lost run (the sweep's `error` and any `completed`). */
export function endsLostRun(e: StoredEvent): boolean {
  return e.event.type === 'completed' || (e.event.type === 'error' && e.event.code === REPLICA_LOST);
}

/** Fails every run with no heartbeat since `before` that no other sweep got first; the events it wrote, by run. */
export async function failLostRuns(deps: LostRunsDeps, before = deps.clock.now() - deps.lostAfterMs): Promise<StoredEvent[][]> {
  const ended: StoredEvent[][] = [];
  for (const run of await staleRuns(deps.store, before, deps.replicaId)) {
    const events = await failLostRun(deps, run, before);
    if (events) ended.push(events);
  }
  return ended;
}

/** Fails one run found stale before `before`, if no other sweep did meanwhile; the events it wrote. */
export async function failLostRun(deps: LostRunsDeps, run: RunRow, before: number): Promise<StoredEvent[] | undefined> {
  const { store: x, clock } = deps;
  const at = clock.now();
  // Ids reserved now are above every id the lost replica was given: a stream resumed after its last
  // event gets these. Reserved outside the batch (event-ids.ts); a lost claim wastes two ids.
  const last = await reserveEventIds(x, 2);
  const of = { run_id: run.id, chat_id: run.chat_id, created_at: at };
  const events: StoredEvent[] = [
    { ...of, id: last - 1, event: { type: 'error', code: REPLICA_LOST, message: 'The service process running this answer stopped' } },
    { ...of, id: last, event: { type: 'completed', status: 'failed', answer_uuid: run.answer_uuid, content: LOST_ANSWER, credits: 0, usage: { input_tokens: 0, output_tokens: 0, queries: 0 } } },
  ];
  const rows = events.map((e) => ({ id: e.id, run_id: e.run_id, type: e.event.type, data: eventJson(e.event), created_at: e.created_at }));
  const claimed = await x.batch([claimLostRunQuery(x, run.id, before, at, LOST_ANSWER), x.db.insertInto('agent_events').values(rows)], { require: [0] });
  if (!claimed.ok) return undefined;
  deps.log.warn({ run_id: run.id, replica_id: run.replica_id }, 'failed an agent run whose replica was lost');
  // In the chats' store, after the run's end (only the sweep that ended the run writes it).
  await recordInterruptedAnswer(deps, run);
  return events;
}

/** The chat gets the interrupted answer; a chat that cannot take it (deleted meanwhile) does not keep the run running. */
async function recordInterruptedAnswer(deps: LostRunsDeps, run: RunRow): Promise<void> {
  // The run's own user in the run's organization: the answer goes where the question went.
  const asker: Principal = { userId: run.user_id, email: '', orgId: run.org_id, baseOrgId: run.org_id, role: 'user', permissions: [], credential: 'session', scopes: [] };
  try {
    await deps.chats.recordAnswer(asker, { chatId: run.chat_id, content: LOST_ANSWER, messageUuid: run.answer_uuid, answer: { tables: [], charts: [] }, credits: 0, knowledgeItems: [] });
  } catch (err) {
    deps.log.warn({ err, run_id: run.id }, 'could not record the interrupted answer of a lost run');
  }
}
