// `sextant dashboard list|open`: the dashboards the caller sees, and one opened in the browser.
import { objectTable } from '../output.ts';
import type { CommandContext } from '../context.ts';
import { openBrowser } from '../open-browser.ts';

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
type Dashboard = Record<string, unknown> & { id: string; title: string };

/** Every dashboard the caller sees, or those whose title or description holds `search`. */
export async function dashboardList(ctx: CommandContext, search = ''): Promise<void> {
  const res = await ctx.client.json<{ dashboards: Dashboard[] }>('GET', `/api/dashboards${search ? `?${new URLSearchParams({ q: search }).toString()}` : ''}`);
  const none = search ? `No dashboard matches "${search}".` : 'No dashboards yet.';
  print(ctx, res, () => (res.dashboards.length === 0 ? none : objectTable(res.dashboards, ['id', 'title', 'visibility', 'tile_count', 'updated_at'])));
}

/** Checks the dashboard is there for the caller (a missing one is an error, not a blank page), then opens it. */
export async function dashboardOpen(ctx: CommandContext, id: string): Promise<void> {
  const d = await ctx.client.json<Dashboard>('GET', `/api/dashboards/${encodeURIComponent(id)}`);
  const url = `${ctx.settings.server}/dashboards/${encodeURIComponent(d.id)}`;
  print(ctx, { id: d.id, title: d.title, url }, () => `${d.title}: ${url}`);
  openBrowser(url, ctx.env);
}
