// Creating, editing and deleting dashboards. Every question tile must name a question the writer may
// read, so nobody pins another user's private question (or another organization's) to a grid.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { checkVisibility, editableDashboard } from './access.ts';
import { deleteDashboard, findDashboard, insertDashboard, updateDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardEditedMeanwhile, TileQuestionNotFound } from './errors.ts';
import type { Dashboard, DashboardFields, DashboardFilter, TileInput, Visibility } from './schemas.ts';
import { storedTiles, viewOf } from './tiles.ts';

export interface NewDashboard {
  title: string;
  description?: string | undefined;
  visibility?: Visibility | undefined;
  tiles: TileInput[];
  filters?: DashboardFilter[] | undefined;
}

/** What an edit may change; absent fields keep their value, `tiles` replaces every tile. */
export type DashboardEdit = Partial<NewDashboard>;

/** Refuses tiles naming a question the writer may not read (404, as for the question itself). */
async function checkQuestions(deps: DashboardDeps, p: Principal, tiles: TileInput[]): Promise<void> {
  const ids = [...new Set(tiles.flatMap((t) => ('saved_question_id' in t ? [t.saved_question_id] : [])))];
  const found = await deps.ports.questions(p, ids);
  if (ids.some((id) => !found.has(id))) throw new TileQuestionNotFound();
}

/** Saves a dashboard owned by the caller, version 1. */
export async function createDashboard(deps: DashboardDeps, p: Principal, d: NewDashboard): Promise<Dashboard> {
  const fields: DashboardFields = { title: d.title, description: d.description ?? '', visibility: d.visibility ?? 'private', filters: d.filters ?? [] };
  checkVisibility(p, fields.visibility);
  await checkQuestions(deps, p, d.tiles);
  const id = `db_${randomBytes(9).toString('base64url')}`;
  await insertDashboard(deps.store, { id, orgId: p.orgId, ownerId: p.userId, at: deps.clock.now(), fields, tiles: storedTiles(d.tiles) });
  return viewOf(deps, p, (await findDashboard(deps.store, p.orgId, id))!);
}

/** Writes the next version of a dashboard the caller may edit. */
export async function editDashboard(deps: DashboardDeps, p: Principal, id: string, edit: DashboardEdit): Promise<Dashboard> {
  const d = await editableDashboard(deps, p, id);
  if (edit.visibility) checkVisibility(p, edit.visibility, d.visibility);
  if (edit.tiles) await checkQuestions(deps, p, edit.tiles);
  const fields: DashboardFields = {
    title: edit.title ?? d.title,
    description: edit.description ?? d.description,
    visibility: edit.visibility ?? d.visibility,
    filters: edit.filters ?? d.filters,
  };
  const tiles = edit.tiles ? storedTiles(edit.tiles) : d.tiles;
  if (!(await updateDashboard(deps.store, { id, fromVersion: d.version, fields, tiles, at: deps.clock.now() }))) throw new DashboardEditedMeanwhile();
  return viewOf(deps, p, (await findDashboard(deps.store, p.orgId, id))!);
}

/** Deletes a dashboard the caller may edit, with its tiles and share links. */
export async function removeDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<void> {
  await editableDashboard(deps, p, id);
  await deleteDashboard(deps.store, p.orgId, id);
}
