// The SQL of run ownership: a run belongs to the replica that started it, which refreshes the
// heartbeat of all its running runs at once; a running run with a stale heartbeat lost its replica.
// Heartbeats carry each replica's own clock: replicas on several hosts need their clocks in step
// (NTP) to well within the lost-replica threshold.
import type { RunRow } from './event-log.ts';
import type { AgentStore } from './tables.ts';

/** Refreshes the heartbeat of every running run of a replica, in one statement; the ids of the runs it refreshed. */
export async function heartbeatRuns(x: AgentStore, replicaId: string, at: number): Promise<Set<string>> {
  const rows = await x.all(x.db.updateTable('agent_runs').set({ heartbeat_at: at }).where('replica_id', '=', replicaId).where('status', '=', 'running').returning('id'));
  return new Set(rows.map((r) => r.id));
}

/**
 * Running runs of other replicas whose heartbeat is older than `before`. A replica's own runs are
 * never lost to it: it is running them, however late its heartbeat (a long stall of its event loop).
 */
export function staleRuns(x: AgentStore, before: number, replicaId: string): Promise<RunRow[]> {
  return x.all(
    x.db
      .selectFrom('agent_runs')
      .selectAll()
      .where('status', '=', 'running')
      .where('heartbeat_at', '<', before)
      .where((w) => w.or([w('replica_id', 'is', null), w('replica_id', '<>', replicaId)])),
  );
}

/**
 * The claim on a run whose replica is lost, if it still is: running, heartbeat older than `before`. Of
 * several replicas sweeping at once only one changes the row, and only it writes the run's end.
 */
export function claimLostRunQuery(x: AgentStore, runId: string, before: number, at: number, answer: string) {
  return x.db
    .updateTable('agent_runs')
    .set({ status: 'failed', answer, finished_at: at })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', before);
}
