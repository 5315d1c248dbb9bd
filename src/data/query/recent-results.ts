// Results of governed statements read lately, kept a few seconds: the viewers of a dashboard opened
// by many at once (a team meeting, a link posted in a channel) arrive over a second or two, after the
// first execution of a tile has already ended. Each caller still passes its own governance first; a
// result is found only under the exact statement that governance produced, and keeps the time it was
// read. Bounded by cells, so a few large results cannot hold the gateway's memory.
import type { Clock } from '../../clock.ts';

export interface RecentResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  truncated: boolean;
  /** When the warehouse read it (clock ms). */
  readAt: number;
}

/** How long a result is served after it was read: a dashboard's viewers see "read at" and can refresh. */
export const RECENT_RESULT_MS = 5_000;
/** Cells (rows x columns) kept at most over all results; a larger result is not kept. */
export const RECENT_RESULT_CELLS = 200_000;

export interface RecentResults {
  /** The result read under `key` less than RECENT_RESULT_MS ago, if any. */
  get(key: string): RecentResult | undefined;
  put(key: string, r: RecentResult): void;
}

const cellsOf = (r: RecentResult) => r.rows.length * Math.max(1, r.columns.length);

/** An empty store of recent results on `clock`. */
export function recentResults(clock: Clock, { ttlMs = RECENT_RESULT_MS, maxCells = RECENT_RESULT_CELLS } = {}): RecentResults {
  const kept = new Map<string, RecentResult>();
  let cells = 0;
  const drop = (key: string, r: RecentResult) => {
    kept.delete(key);
    cells -= cellsOf(r);
  };
  const fresh = (r: RecentResult) => clock.now() - r.readAt < ttlMs;
  return {
    get(key) {
      const r = kept.get(key);
      if (!r || fresh(r)) return r;
      drop(key, r);
      return undefined;
    },
    put(key, r) {
      const old = kept.get(key);
      if (old) drop(key, old);
      if (!fresh(r) || cellsOf(r) > maxCells) return;
      // Oldest first: expired ones, then as many as the new one needs room for.
      for (const [k, o] of kept) {
        if (fresh(o) && cells + cellsOf(r) <= maxCells) break;
        drop(k, o);
      }
      kept.set(key, r);
      cells += cellsOf(r);
    },
  };
}
