// Reading dashboards: the list (searched, in keyset pages) and one dashboard with its tiles as the
// caller sees them.
import type { Principal } from '../auth/index.ts';
import { readableDashboard } from './access.ts';
import { listDashboards } from './dashboards-store.ts';
import { InvalidCursor } from '../errors.ts';
import { decodeKeyset, encodeKeyset } from '../store/index.ts';
import type { DashboardDeps } from './deps.ts';
import type { Dashboard, DashboardSummary } from './schemas.ts';
import { viewOf } from './tiles.ts';

/**
 * A page of the list: `limit` dashboards after `cursor` (the previous page's next_cursor); every one
 * from the cursor on without a limit. With `q`, only those whose title or description contains it.
 */
export interface ListPage {
  q?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** The organization's dashboards and the caller's private ones, last edited first, a page at a time. */
export async function dashboards(deps: DashboardDeps, p: Principal, page: ListPage = {}): Promise<{ dashboards: DashboardSummary[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeKeyset(page.cursor);
  if (page.cursor !== undefined && !after) throw new InvalidCursor();
  const rows = await listDashboards(deps.store, p.orgId, p.userId, { q: page.q?.trim() || undefined, after, limit: page.limit === undefined ? undefined : page.limit + 1 });
  const more = page.limit !== undefined && rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown.at(-1);
  return { dashboards: shown, next_cursor: more && last ? encodeKeyset({ at: Date.parse(last.updated_at), id: last.id }) : null };
}

/** One dashboard the caller may read. */
export async function dashboard(deps: DashboardDeps, p: Principal, id: string): Promise<Dashboard> {
  return viewOf(deps, p, await readableDashboard(deps, p, id));
}
