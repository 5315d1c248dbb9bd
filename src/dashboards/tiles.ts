// Tiles and filters between the API and the store: ids given to new ones, and each question tile
// shown with its question as the caller sees it (null when they may not read it).
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import type { StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import type { Dashboard, DashboardFilter, FilterInput, StoredTile, TileInput } from './schemas.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('base64url')}`;

/** The tiles to store: given ids kept (so a viewer's open tiles survive an edit), new ones drawn. */
export function storedTiles(tiles: TileInput[]): StoredTile[] {
  return tiles.map((t) => ({
    id: t.id ?? newId('t'),
    saved_question_id: 'saved_question_id' in t ? t.saved_question_id : null,
    text: 'text' in t ? t.text : null,
    x: t.x,
    y: t.y,
    w: t.w,
    h: t.h,
  }));
}

/** The filters to store: given ids kept (a viewer's values name them), new ones drawn. */
export function storedFilters(filters: FilterInput[]): DashboardFilter[] {
  return filters.map((f) => ({ ...f, id: f.id ?? newId('f') }));
}

/** The saved questions a dashboard's tiles show, as `p` may read them, in one read. */
export const tileQuestions = (deps: DashboardDeps, p: Principal, d: StoredDashboard) => deps.ports.questions(p, d.tiles.flatMap((t) => (t.saved_question_id === null ? [] : [t.saved_question_id])));

/** The dashboard as `p` sees it: each question tile with the question's title and chart, if readable. */
export async function viewOf(deps: DashboardDeps, p: Principal, d: StoredDashboard): Promise<Dashboard> {
  const questions = await tileQuestions(deps, p, d);
  const tiles = d.tiles.map((t) => {
    const q = t.saved_question_id === null ? undefined : questions.get(t.saved_question_id);
    return { ...t, question: q ? { title: q.title, chart: q.chart } : null };
  });
  return { ...d, tiles };
}
