// Dashboards: list, create, read, edit (tiles replaced as a whole), delete, and run one tile at a
// time as the viewer with the dashboard's filters, so tiles load in parallel and fail alone.
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError, ValidationFailed } from '../../errors.ts';
import { statusOf } from '../error-handler.ts';
import { createDashboard, Dashboard, dashboard, dashboards, DashboardSummary, editDashboard, FilterInput, FilterValue, removeDashboard, runTile, runTiles, TileInput, tilesInGrid, type TileOutcome, TileQueryFailed, TileRun, Visibility } from '../../dashboards/index.ts';
import { clientSignal } from '../client-signal.ts';
import { route } from '../route.ts';
import { NextCursor, searchedPageQuery } from '../searched-page.ts';
import { Title } from '../title-field.ts';
import type { Services } from '../../compose/services.ts';

export const DashboardId = z.object({ id: z.string().min(1).max(100) });
const Description = z.string().max(5000);

/** No two items with one id: a tile or filter is named by it. */
const uniqueIds = <T extends { id?: string | undefined }>(items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id === undefined) return;
    if (seen.has(item.id)) ctx.addIssue({ code: 'custom', message: 'Two items have this id', path: [i, 'id'] });
    seen.add(item.id);
  });
};

const Tiles = z
  .array(TileInput)
  .max(50)
  .superRefine(uniqueIds)
  .superRefine(tilesInGrid)
  .describe('Tiles on a 12-column grid (x + w at most 12, else 422 naming the tile): a saved question ({saved_question_id, x, y, w, h}) or text ({text, x, y, w, h}); an optional id keeps a tile\'s id across edits');
export const Filters = z
  .array(FilterInput)
  .max(10)
  .superRefine(uniqueIds)
  .describe('A date range ({id?, type: "date_range", field, default?: {from?, to?}}) or dimension values ({id?, type: "values", field, default?: [..]}) on a named result column, applied to every tile whose result has it; a run names a filter by its id, drawn when none is given (an id kept across edits keeps viewers\' links to its values)');
export const RunBody = z.object({
  filters: z.array(FilterValue).max(10).superRefine(uniqueIds).optional().describe("The viewer's filter values by filter id; a filter not named keeps its default"),
  refresh: z
    .boolean()
    .optional()
    .describe('Read the data afresh. Without it, rows of the same governed statement (after this viewer\'s own guard and row security) read less than 5 seconds ago, or being read now, may answer, with their own read_at'),
});

/** The warehouse's own message a tile's failure kept from its viewer goes to the server's log. */
function logHidden(ctx: Context, tileId: string, err: unknown): void {
  if (err instanceof TileQueryFailed) ctx.state.log?.warn({ err: err.cause, tile_id: tileId }, 'a dashboard tile failed in the warehouse');
}

/** One tile's run, its hidden warehouse message logged if it fails. */
export async function loggedTile(ctx: Context, tileId: string, run: Promise<TileRun>): Promise<TileRun> {
  try {
    return await run;
  } catch (err) {
    logHidden(ctx, tileId, err);
    throw err;
  }
}

/** A tile's failure as the single-tile route would answer it: its status and `{detail, code}` body. */
function tileError(ctx: Context, tileId: string, err: unknown) {
  logHidden(ctx, tileId, err);
  if (!(err instanceof AppError)) {
    ctx.state.log?.error({ err, tile_id: tileId }, 'a dashboard tile failed');
    return { tile_id: tileId, status: 500, error: { detail: 'Internal Server Error', code: 'INTERNAL_ERROR' } };
  }
  const status = statusOf(err);
  const detail = err instanceof ValidationFailed ? err.issues : status === 422 ? [{ loc: [], msg: err.message, type: 'value_error' }] : err.message;
  return { tile_id: tileId, status, error: { detail, code: err.code, ...(err.data ? { data: err.data } : {}) } };
}

/**
 * The JSON of result rows, by the rows' array: viewers that share an execution or a recent result get
 * the very same array (the rows of one governed statement), so it is written out once, not per viewer.
 */
const rowsJson = new WeakMap<unknown[][], string>();

/** A tile's line: the single-tile route's body with `status: 200`. */
function runLine(run: TileRun): string {
  const { rows, ...rest } = run;
  let json = rowsJson.get(rows);
  if (json === undefined) rowsJson.set(rows, (json = JSON.stringify(rows)));
  return `${JSON.stringify({ ...rest, status: 200 }).slice(0, -1)},"rows":${json}}\n`;
}

/** The lines of the tiles that finished together, as one chunk (one write). */
async function* tileLines(ctx: Context, outcomes: AsyncIterable<TileOutcome[]>): AsyncGenerator<string> {
  for await (const group of outcomes) yield group.map((o) => (o.run !== undefined ? runLine(o.run) : `${JSON.stringify(tileError(ctx, o.tile_id, o.error))}\n`)).join('');
}

/** Streams each tile's outcome as one JSON line, in the order they finish. */
export function streamTiles(ctx: Context, outcomes: AsyncIterable<TileOutcome[]>): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/x-ndjson';
  ctx.body = Readable.from(tileLines(ctx, outcomes));
}

export const TILES_STREAM =
  'A stream of JSON lines (application/x-ndjson), one per question tile in the order they finish: the single-tile route\'s body (tile_id, columns, rows, read_at, truncated, applied_filters) with `status: 200`, or `{tile_id, status, error: {detail, code, data?}}` with the status and body the single-tile route would have answered for that tile; a tile\'s error stays in its line and the others run. Text tiles have no line.';

/** The client's signal, listened to by every tile of a whole-dashboard run (up to 50). */
export function tilesSignal(ctx: Context): AbortSignal {
  const signal = clientSignal(ctx);
  setMaxListeners(100, signal);
  return signal;
}

/** Dashboard routes. */
export function dashboardRoutes(s: Services) {
  const tags = ['dashboards'];
  return [
    route({
      method: 'GET',
      path: '/api/dashboards',
      operationId: 'list_dashboards',
      summary: "The organization's dashboards and the caller's private ones, last edited first",
      tags,
      auth: 'user',
      query: searchedPageQuery('dashboards'),
      response: z.object({ dashboards: z.array(DashboardSummary), next_cursor: NextCursor }),
      handler: ({ principal, query }) => dashboards(s.dashboards, principal, query),
    }),
    route({
      method: 'POST',
      path: '/api/dashboards',
      operationId: 'create_dashboard',
      summary: 'Saves a dashboard of saved-question and text tiles with its filters',
      description:
        'Regular users save private dashboards; admins and modelers may also publish to the organization (403 otherwise). A tile naming a saved question the caller may not read answers 404 SAVED_QUESTION_NOT_FOUND, with `data.loc` naming the tile (`["body", "tiles", i, "saved_question_id"]`) and `data.tile_id` when it has one.',
      tags,
      auth: 'user',
      body: z.object({
        title: Title,
        description: Description.optional(),
        visibility: Visibility.optional().describe('Default private; organization needs an admin or modeler'),
        tiles: Tiles,
        filters: Filters.optional(),
      }),
      status: 201,
      response: Dashboard,
      errors: { 403: 'Publishing to the organization needs an admin or modeler', 404: 'A tile\'s saved question not found' },
      handler: ({ principal, body }) => createDashboard(s.dashboards, principal, body),
    }),
    route({
      method: 'GET',
      path: '/api/dashboards/{id}',
      operationId: 'get_dashboard',
      summary: "One dashboard with its tiles as the caller sees them (another user's private dashboard answers 404)",
      tags,
      auth: 'user',
      params: DashboardId,
      response: Dashboard,
      errors: { 404: 'Dashboard not found' },
      handler: ({ principal, params }) => dashboard(s.dashboards, principal, params.id),
    }),
    route({
      method: 'PATCH',
      path: '/api/dashboards/{id}',
      operationId: 'update_dashboard',
      summary: 'Edits a dashboard (owner, or an admin for an organization dashboard); tiles and filters, when given, replace the old ones',
      description:
        "Send `version` (the version read) so that an edit made over someone else's newer one answers 409 instead of undoing it. An edit that changes nothing writes no version. Only tiles the edit adds, or whose saved_question_id it changes, must name a question the caller may read (404 SAVED_QUESTION_NOT_FOUND with `data.loc` naming the tile and `data.tile_id` when it has one); a tile kept as it was stays, whoever can read its question now. Making a dashboard private ends for good the links others made to it.",
      tags,
      auth: 'user',
      params: DashboardId,
      body: z.object({
        title: Title.optional(),
        description: Description.optional(),
        visibility: Visibility.optional(),
        tiles: Tiles.optional(),
        filters: Filters.optional(),
        version: z.number().int().min(1).optional().describe('The version the edit was made from (as read); 409 when the dashboard was edited since'),
      }),
      response: Dashboard,
      errors: { 403: 'Not the owner (nor an admin), or publishing without the role', 404: "Dashboard, or the saved question of a tile the edit adds, not found", 409: 'Edited since the version the edit was made from' },
      handler: ({ principal, params, body }) => editDashboard(s.dashboards, principal, params.id, body),
    }),
    route({
      method: 'DELETE',
      path: '/api/dashboards/{id}',
      operationId: 'delete_dashboard',
      summary: 'Deletes a dashboard with its tiles and share links (owner, or an admin for an organization dashboard)',
      tags,
      auth: 'user',
      params: DashboardId,
      response: z.object({ deleted: z.literal(true) }),
      errors: { 403: 'Not the owner nor an admin', 404: 'Dashboard not found' },
      handler: async ({ principal, params }) => {
        await removeDashboard(s.dashboards, principal, params.id);
        return { deleted: true as const };
      },
    }),
    route({
      method: 'POST',
      path: '/api/dashboards/{id}/tiles/{tile_id}/run',
      operationId: 'run_dashboard_tile',
      summary: "Runs one tile's saved question under the caller's permissions and row-level security, with the dashboard's filters applied where the result has the field",
      description:
        'The same governed path as POST /api/saved_questions/{id}/run. Filter values are never spliced into the SQL by hand: the data plane wraps the question as a subquery with the values as quoted literals and the whole statement passes the SQL guard and row security. Call once per tile, in parallel; a tile\'s failure is its own response.',
      tags,
      auth: 'user',
      params: DashboardId.extend({ tile_id: z.string().min(1).max(100) }),
      body: RunBody,
      response: TileRun,
      errors: {
        400: "Query refused by the guard, or failed in the warehouse (the warehouse's own message only to the question's writer; others get its code, the message goes to the server log)",
        404: 'Dashboard, tile or the tile\'s saved question not found',
        422: 'Invalid body, a filter id the dashboard lacks, or a value of the other kind than its filter (values for a date range, from/to for values)',
      },
      handler: ({ principal, params, body, environmentId, ctx }) =>
        loggedTile(ctx, params.tile_id, runTile(s.dashboards, principal, params.id, { tileId: params.tile_id, filters: body.filters, refresh: body.refresh, environmentId, signal: clientSignal(ctx) })),
    }),
    route({
      method: 'POST',
      path: '/api/dashboards/{id}/run',
      operationId: 'run_dashboard',
      summary: "Runs all of a dashboard's question tiles in parallel under the caller's permissions and row-level security, streaming each tile's result as it finishes",
      description: `One request per viewer instead of one per tile: the dashboard and each saved question are read once, the tiles run as by POST /api/dashboards/{id}/tiles/{tile_id}/run (kept for one tile's retry). ${TILES_STREAM}`,
      tags,
      auth: 'user',
      params: DashboardId,
      body: RunBody,
      produces: 'application/x-ndjson',
      errors: { 404: 'Dashboard not found' },
      handler: async ({ principal, params, body, environmentId, ctx }) => {
        streamTiles(ctx, await runTiles(s.dashboards, principal, params.id, { filters: body.filters, refresh: body.refresh, environmentId, signal: tilesSignal(ctx) }));
      },
    }),
  ];
}
