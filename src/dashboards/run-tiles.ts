// Running a dashboard's tiles, as the viewer: each tile's saved question goes through the governed
// query path under the viewer's role and row security (never the owner's), with the dashboard's
// filters applied to every tile whose result has the field. One tile per call, so a client loads
// them in parallel and a tile's failure stays in its tile.
import type { Principal } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import { readableDashboard } from './access.ts';
import type { StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardNotFound, TileNotFound, TileQueryFailed, TileQuestionNotFound } from './errors.ts';
import { conditionsFor } from './filter-conditions.ts';
import type { DashboardPorts, ResultCondition, TileQuestion } from './ports.ts';
import type { FilterValue, TileRun } from './schemas.ts';
import { tileQuestions } from './tiles.ts';

export interface TileRunArgs {
  tileId: string;
  filters?: FilterValue[] | undefined;
  environmentId?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Read the data afresh (a refresh), not rows another viewer's run read seconds ago. */
  refresh?: boolean | undefined;
  /** Run through a share link, for whoever holds it: a warehouse's message is never shown. */
  viaLink?: boolean | undefined;
}

type Query = ReturnType<DashboardPorts['runner']>;

/** Codes whose message is the warehouse's own text, which may quote the governed statement. */
const WAREHOUSE_MESSAGES = new Set(['QUERY_FAILED', 'QUERY_RECURSION_LIMIT']);

/**
 * Runs a tile's question (read by the run's viewer already) with the run's conditions. A warehouse's
 * message quotes the statement as governance rewrote it, row filters and attribute values included:
 * only the question's writer, signed in, sees it; anyone else (a link's holder, a subscription's
 * recipients, another member) gets its code.
 */
async function runQuestion(query: Query, tileId: string, q: TileQuestion, conditions: ResultCondition[], a: TileRunArgs & { reveal: boolean }): Promise<TileRun> {
  try {
    const r = await query({ environmentId: a.environmentId, connectionId: q.connectionId, sql: q.sql, conditions, signal: a.signal, fresh: a.refresh });
    return { tile_id: tileId, columns: r.columns, rows: r.rows, read_at: new Date(r.readAt).toISOString(), truncated: r.truncated, applied_filters: r.applied };
  } catch (err) {
    if (!a.reveal && err instanceof AppError && WAREHOUSE_MESSAGES.has(err.code)) throw new TileQueryFailed(err);
    throw err;
  }
}

/** Whether `p` sees a warehouse's own message for `q`: its writer, not through a link. */
const reveals = (p: Principal, q: TileQuestion, a: Pick<TileRunArgs, 'viaLink'>) => !a.viaLink && q.ownerId === p.userId;

/** Runs one question tile of a dashboard `p` has already been allowed to read. */
export async function runTileOf(deps: DashboardDeps, p: Principal, d: StoredDashboard, a: TileRunArgs): Promise<TileRun> {
  const tile = d.tiles.find((t) => t.id === a.tileId);
  if (!tile || tile.saved_question_id === null) throw new TileNotFound();
  const conditions = conditionsFor(d.filters, a.filters ?? []);
  const q = await deps.ports.question(p, tile.saved_question_id);
  if (!q) throw new TileQuestionNotFound();
  return runQuestion(deps.ports.runner(p), tile.id, q, conditions, { ...a, reveal: reveals(p, q, a) });
}

/** Fresh rows of one tile of a dashboard the caller may read. */
export async function runTile(deps: DashboardDeps, p: Principal, dashboardId: string, a: TileRunArgs): Promise<TileRun> {
  return runTileOf(deps, p, await readableDashboard(deps, p, dashboardId), a);
}

/** One tile of a whole-dashboard run: text, or a question's rows, or the error that stayed in it. */
export interface DashboardRunTile {
  id: string;
  title: string | null;
  text: string | null;
  chart: Record<string, unknown> | null;
  columns: { name: string; type: string }[];
  rows: unknown[][];
  read_at: string | null;
  error?: { code: string; message: string };
}

/**
 * Reads a dashboard and runs all its tiles in parallel as the given user, with their permissions at
 * the time of the run (subscriptions and scheduled sends use this); a failing tile carries its error.
 */
export async function runDashboard(
  deps: DashboardDeps,
  a: { organizationId: string; userId: string; dashboardId: string; filters?: FilterValue[] | undefined; signal?: AbortSignal | undefined },
): Promise<{ id: string; title: string; tiles: DashboardRunTile[] }> {
  const p = await deps.ports.principal(a.organizationId, a.userId);
  if (!p) throw new DashboardNotFound();
  const d = await readableDashboard(deps, p, a.dashboardId);
  const conditions = conditionsFor(d.filters, a.filters ?? []);
  const query = deps.ports.runner(p);
  const questions = tileQuestions(deps, p, d);
  const tiles = await Promise.all(
    d.tiles.map(async (t): Promise<DashboardRunTile> => {
      const base = { id: t.id, text: t.text, title: null, chart: null, columns: [], rows: [], read_at: null };
      if (t.saved_question_id === null) return base;
      let q: TileQuestion | undefined;
      try {
        q = (await questions).get(t.saved_question_id);
        if (!q) throw new TileQuestionNotFound();
        const r = await runQuestion(query, t.id, q, conditions, { tileId: t.id, signal: a.signal, reveal: false });
        return { ...base, title: q.title, chart: q.chart, columns: r.columns, rows: r.rows, read_at: r.read_at };
      } catch (err) {
        const e = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'INTERNAL_ERROR', message: 'The tile could not be run' };
        return { ...base, title: q?.title ?? null, error: e };
      }
    }),
  );
  return { id: d.id, title: d.title, tiles };
}

/** One tile of a streamed whole-dashboard run: its rows, or the error that stays in it. */
export type TileOutcome = { tile_id: string; run: TileRun; error?: undefined } | { tile_id: string; run?: undefined; error: unknown };

/**
 * Promises that never reject, as they settle: each time, all that settled since the last group was
 * taken, in the order they settled, gathered to the end of the event loop's turn (tiles answered by
 * one execution or by recent results settle together, and go out as one write).
 */
async function* bySettling<T>(pending: Promise<T>[]): AsyncGenerator<T[]> {
  let ready: T[] = [];
  let wake: (() => void) | undefined;
  for (const pr of pending)
    void pr.then((v) => {
      ready.push(v);
      wake?.();
    });
  for (let left = pending.length; left > 0; ) {
    if (ready.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    await new Promise((resolve) => setImmediate(resolve));
    const group = ready;
    ready = [];
    left -= group.length;
    yield group;
  }
}

/**
 * Starts every question tile of a dashboard `p` may read, in parallel, with the run's filters
 * (checked here, before anything runs), and gives each tile's outcome as it finishes (those that
 * finished together as one group): one request per viewer reads the dashboard and its saved questions
 * once (all in one read).
 */
export function runTilesOf(deps: DashboardDeps, p: Principal, d: StoredDashboard, a: Omit<TileRunArgs, 'tileId'>): AsyncGenerator<TileOutcome[]> {
  const conditions = conditionsFor(d.filters, a.filters ?? []);
  const questions = tileQuestions(deps, p, d);
  const query = deps.ports.runner(p);
  const runs = d.tiles.flatMap((t) => {
    const qid = t.saved_question_id;
    if (qid === null) return [];
    const outcome = (async (): Promise<TileOutcome> => {
      try {
        const q = (await questions).get(qid);
        if (!q) throw new TileQuestionNotFound();
        return { tile_id: t.id, run: await runQuestion(query, t.id, q, conditions, { ...a, tileId: t.id, reveal: reveals(p, q, a) }) };
      } catch (error) {
        return { tile_id: t.id, error };
      }
    })();
    return [outcome];
  });
  return bySettling(runs);
}

/** All question tiles of a dashboard the caller may read, as they finish (DashboardNotFound before any). */
export async function runTiles(deps: DashboardDeps, p: Principal, dashboardId: string, a: Omit<TileRunArgs, 'tileId'>): Promise<AsyncGenerator<TileOutcome[]>> {
  return runTilesOf(deps, p, await readableDashboard(deps, p, dashboardId), a);
}
