// The SQL of run ownership: a run belongs to the replica that started it, which refreshes the
// heartbeat of all its running runs at once; a running run with a stale heartbeat lost its replica.
// Heartbeats carry each replica's own clock: replicas on several hosts need their clocks in step
// (NTP) to well within the lost-replica threshold.
import { statement, type Db } from '../../store/index.ts';
import type { RunRow } from './event-log.ts';

/** Refreshes the heartbeat of every running run of a replica, in one statement; the ids of the runs it refreshed. */
export function heartbeatRuns(db: Db, replicaId: string, at: number): Set<string> {
  const rows = statement(db, "UPDATE agent_runs SET heartbeat_at = ? WHERE replica_id = ? AND status = 'running' RETURNING id").all(at, replicaId) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/**
 * Running runs of other replicas whose heartbeat is older than `before`. A replica's own runs are
 * never lost to it: it is running them, however late its heartbeat (a long stall of its event loop).
 */
export function staleRuns(db: Db, before: number, replicaId: string): RunRow[] {
  return statement(db, "SELECT * FROM agent_runs WHERE status = 'running' AND heartbeat_at < ? AND (replica_id IS NULL OR replica_id <> ?)").all(before, replicaId) as RunRow[];
}

/**
 * Fails a run whose replica is lost, if it still is: running, heartbeat older than `before`. Only one
 * of several replicas sweeping at once gets true, and only it writes the run's end.
 */
export function claimLostRun(db: Db, runId: string, before: number, at: number, answer: string): boolean {
  return statement(db, "UPDATE agent_runs SET status = 'failed', answer = ?, finished_at = ? WHERE id = ? AND status = 'running' AND heartbeat_at < ?").run(answer, at, runId, before).changes === 1;
}
