// Read-only links to dashboards: create, list and revoke (the owner, or an admin for an organization
// dashboard), and the public view whose tiles run with the sharer's permissions.
import { z } from 'zod';
import { Dashboard, dashboardShares, revokeDashboardShare, runSharedTile, runSharedTiles, shareDashboard, sharedDashboard, TileRun } from '../../dashboards/index.ts';
import { clientSignal } from '../client-signal.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { DashboardId, loggedTile, RunBody, streamTiles, TILES_STREAM, tilesSignal } from './dashboards.ts';

const ShareId = z.string().min(1).max(100);
const Share = z.object({
  share_id: z.string().describe("The link's own random id (128 bits, never the dashboard's id)"),
  shared_by: z.string().describe('The user whose permissions the link runs with'),
  shared_at: z.string().describe('ISO 8601'),
  url: z.string().describe('The public view as JSON'),
  page_url: z.string().describe('The public view as a page of the web client'),
});
const SharedDashboard = Dashboard.pick({ title: true, description: true, filters: true, tiles: true }).extend({
  shared_at: z.string().describe('ISO 8601'),
  runs_as: z.literal('sharer').describe("Tiles run with the permissions and row security of the person who shared the link, not the viewer's"),
});

/** Dashboard share-link routes. */
export function dashboardSharingRoutes(s: Services) {
  const tags = ['dashboards'];
  const withUrl = <R extends { share_id: string }>(r: R) => {
    const id = encodeURIComponent(r.share_id);
    return { ...r, url: `${s.config.baseUrl}/api/dashboard_shares/${id}`, page_url: `${s.config.baseUrl}/shared-dashboard/${id}` };
  };
  return [
    route({
      method: 'POST',
      path: '/api/dashboards/{id}/shares',
      operationId: 'share_dashboard',
      summary: 'Creates a read-only link to a dashboard under a new random id; its tiles run with the permissions of the caller (the sharer)',
      tags,
      auth: 'user',
      params: DashboardId,
      status: 201,
      response: Share,
      errors: { 403: 'Not the owner nor an admin', 404: 'Dashboard not found' },
      handler: async ({ principal, params }) => withUrl(await shareDashboard(s.dashboards, principal, params.id)),
    }),
    route({
      method: 'GET',
      path: '/api/dashboards/{id}/shares',
      operationId: 'list_dashboard_shares',
      summary: 'The read-only links of a dashboard, newest first',
      tags,
      auth: 'user',
      params: DashboardId,
      response: z.object({ shares: z.array(Share) }),
      errors: { 403: 'Not the owner nor an admin', 404: 'Dashboard not found' },
      description: 'Links whose sharer lost access are ended, not listed.',
      handler: async ({ principal, params }) => ({ shares: (await dashboardShares(s.dashboards, principal, params.id)).map(withUrl) }),
    }),
    route({
      method: 'DELETE',
      path: '/api/dashboards/{id}/shares/{share_id}',
      operationId: 'revoke_dashboard_share',
      summary: 'Revokes a read-only link; it answers 404 from then on',
      tags,
      auth: 'user',
      params: DashboardId.extend({ share_id: ShareId }),
      response: z.object({ revoked: z.literal(true) }),
      errors: { 403: 'Not the owner nor an admin', 404: 'Dashboard or link not found' },
      handler: async ({ principal, params }) => {
        await revokeDashboardShare(s.dashboards, principal, params.id, params.share_id);
        return { revoked: true as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/dashboard_shares/{share_id}',
      operationId: 'load_shared_dashboard',
      summary: 'Public view of a shared dashboard by the link\'s id; its tiles run with the sharer\'s permissions',
      tags,
      auth: 'none',
      params: z.object({ share_id: ShareId }),
      response: SharedDashboard,
      errors: { 404: 'Link not found, revoked, or ended because its sharer lost access (deactivated, removed, or the dashboard made private): getting access back does not revive it' },
      handler: async ({ params, ctx }) => {
        ctx.set('Cache-Control', 'no-store');
        return { ...(await sharedDashboard(s.dashboards, params.share_id)), runs_as: 'sharer' as const };
      },
    }),
    route({
      method: 'POST',
      path: '/api/dashboard_shares/{share_id}/tiles/{tile_id}/run',
      operationId: 'run_shared_dashboard_tile',
      summary: "Runs one tile of a shared dashboard with the sharer's permissions and row-level security, on production",
      tags,
      auth: 'none',
      params: z.object({ share_id: ShareId, tile_id: z.string().min(1).max(100) }),
      body: RunBody,
      response: TileRun,
      errors: {
        400: "Query refused by the guard, or failed in the warehouse (its code only: the warehouse's message, which may quote the sharer's row filters, goes to the server log)",
        404: 'Link, tile or the tile\'s saved question not found; a link whose sharer lost access is ended for good',
        429: 'The link ran more than 600 tiles in a minute',
      },
      handler: ({ params, body, ctx }) => {
        ctx.set('Cache-Control', 'no-store');
        return loggedTile(ctx, params.tile_id, runSharedTile(s.dashboards, params.share_id, { tileId: params.tile_id, filters: body.filters, refresh: body.refresh, signal: clientSignal(ctx) }));
      },
    }),
    route({
      method: 'POST',
      path: '/api/dashboard_shares/{share_id}/run',
      operationId: 'run_shared_dashboard',
      summary: "Runs all question tiles of a shared dashboard in parallel with the sharer's permissions and row-level security, on production, streaming each as it finishes",
      description: `Each tile counts against the link's ceiling of 600 tile runs a minute. ${TILES_STREAM}`,
      tags,
      auth: 'none',
      params: z.object({ share_id: ShareId }),
      body: RunBody,
      produces: 'application/x-ndjson',
      errors: { 404: 'Link not found, revoked, or its sharer can no longer read the dashboard', 429: 'The link ran more than 600 tiles in a minute' },
      handler: async ({ params, body, ctx }) => {
        streamTiles(ctx, await runSharedTiles(s.dashboards, params.share_id, { filters: body.filters, refresh: body.refresh, signal: tilesSignal(ctx) }));
      },
    }),
  ];
}
