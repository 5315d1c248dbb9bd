// What dashboards read from other domains, declared here and implemented in src/compose.
import type { Principal } from '../auth/index.ts';
import type { DimensionValue } from './schemas.ts';

/** A saved question as a tile needs it. */
export interface TileQuestion {
  id: string;
  /** Who wrote it: the one viewer shown the warehouse's own message when its query fails. */
  ownerId: string;
  title: string;
  connectionId: string;
  sql: string;
  chart: Record<string, unknown> | null;
}

/**
 * A dashboard filter resolved for one run, applied to the result's column `field` when it has one:
 * `from`/`before` bound a date range (`before` exclusive), `values` keep the listed dimension values.
 */
export interface ResultCondition {
  filterId: string;
  field: string;
  from?: string | undefined;
  before?: string | undefined;
  values?: DimensionValue[] | undefined;
}

/** A governed query's rows, and which conditions its result had the field for. */
export interface FilteredRows {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  truncated: boolean;
  applied: string[];
  /** When the warehouse read them (clock ms): earlier than the request when it joined a running execution. */
  readAt: number;
}

/** A tile's query as the viewer, with the run's conditions. */
export interface TileQuery {
  environmentId: string | undefined;
  connectionId: string;
  sql: string;
  conditions: ResultCondition[];
  signal?: AbortSignal | undefined;
  fresh?: boolean | undefined;
}

export interface DashboardPorts {
  /** A saved question `p` may read (saved questions' rules), else undefined. */
  question(p: Principal, id: string): Promise<TileQuestion | undefined>;
  /** The saved questions of `ids` that `p` may read, by id, in one read (a dashboard's tiles); the others are absent. */
  questions(p: Principal, ids: readonly string[]): Promise<Map<string, TileQuestion>>;
  /**
   * The governed pipeline for one run's tiles as `p`: each query goes through the guard, governed
   * sources, row security and limits, with the conditions whose field the result has applied by the
   * data plane, never spliced here. What the tiles of a run read alike (the connection, the viewer's
   * row-security facts) is read once per runner: make one per request. Rows of the same governed
   * statement read seconds ago, or being read now, may serve a query unless `fresh`.
   */
  runner(p: Principal): (q: TileQuery) => Promise<FilteredRows>;
  /** The user as they act in the organization now (role, permissions), or undefined once they left. */
  principal(orgId: string, userId: string): Promise<Principal | undefined>;
  /** Whether the user was deactivated or removed in the organization at or after `since` (ms), even if let in again since. */
  accessInterrupted(orgId: string, userId: string, since: number): Promise<boolean>;
  /** Counts one use of `key` against `max` per `windowMs`; throws RateLimited (429) past it. */
  throttle(key: string, limit: { max: number; windowMs: number }): Promise<void>;
}
