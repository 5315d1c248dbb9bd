// Creating, editing and deleting dashboards. Every question tile a writer adds must name a question
// they may read, so nobody pins another user's private question (or another organization's) to a
// grid; a tile already on the grid stays as it is, whoever can read its question now.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../auth/index.ts';
import { checkVisibility, editableDashboard } from './access.ts';
import { deleteDashboard, findDashboard, insertDashboard, updateDashboard, type StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardEditedMeanwhile, TileQuestionNotFound } from './errors.ts';
import type { Dashboard, DashboardFields, FilterInput, StoredTile, TileInput, Visibility } from './schemas.ts';
import { storedFilters, storedTiles, viewOf } from './tiles.ts';

export interface NewDashboard {
  title: string;
  description?: string | undefined;
  visibility?: Visibility | undefined;
  tiles: TileInput[];
  filters?: FilterInput[] | undefined;
}

/**
 * What an edit may change; absent fields keep their value, `tiles` replaces every tile. `version`,
 * when given, is the version the edit was made from: an edit made from an older one is refused
 * rather than silently undoing what was saved since.
 */
export type DashboardEdit = Partial<NewDashboard> & { version?: number | undefined };

/**
 * Refuses a tile the writer adds naming a question they may not read (404, as for the question
 * itself, naming the tile). Tiles kept from `before` with the same question are not checked: a
 * question made private after it was pinned leaves its tile in place, and must not block an
 * admin's edit of the rest of the layout.
 */
async function checkQuestions(deps: DashboardDeps, p: Principal, tiles: TileInput[], before: StoredTile[] = []): Promise<void> {
  const kept = (t: TileInput) => 'saved_question_id' in t && before.some((b) => b.id === t.id && b.saved_question_id === t.saved_question_id);
  const added = tiles.flatMap((t, i) => ('saved_question_id' in t && !kept(t) ? [{ i, id: t.id, question: t.saved_question_id }] : []));
  const found = await deps.ports.questions(p, [...new Set(added.map((t) => t.question))]);
  const refused = added.find((t) => !found.has(t.question));
  if (refused) throw new TileQuestionNotFound({ loc: ['body', 'tiles', refused.i, 'saved_question_id'], tileId: refused.id });
}

/** Saves a dashboard owned by the caller, version 1. */
export async function createDashboard(deps: DashboardDeps, p: Principal, d: NewDashboard): Promise<Dashboard> {
  const fields: DashboardFields = { title: d.title, description: d.description ?? '', visibility: d.visibility ?? 'private', filters: storedFilters(d.filters ?? []) };
  checkVisibility(p, fields.visibility);
  await checkQuestions(deps, p, d.tiles);
  const id = `db_${randomBytes(9).toString('base64url')}`;
  await insertDashboard(deps.store, { id, orgId: p.orgId, ownerId: p.userId, at: deps.clock.now(), fields, tiles: storedTiles(d.tiles) });
  return viewOf(deps, p, (await findDashboard(deps.store, p.orgId, id))!);
}

/** Whether the fields and tiles are what the dashboard already holds. */
const unchanged = (d: StoredDashboard, fields: DashboardFields, tiles: StoredTile[]) =>
  isDeepStrictEqual({ title: d.title, description: d.description, visibility: d.visibility, filters: d.filters, tiles: d.tiles }, { ...fields, tiles });

/** Writes the next version of a dashboard the caller may edit; an edit that changes nothing writes none. */
export async function editDashboard(deps: DashboardDeps, p: Principal, id: string, edit: DashboardEdit): Promise<Dashboard> {
  const d = await editableDashboard(deps, p, id);
  if (edit.version !== undefined && edit.version !== d.version) throw new DashboardEditedMeanwhile();
  if (edit.visibility) checkVisibility(p, edit.visibility, d.visibility);
  if (edit.tiles) await checkQuestions(deps, p, edit.tiles, d.tiles);
  const fields: DashboardFields = {
    title: edit.title ?? d.title,
    description: edit.description ?? d.description,
    visibility: edit.visibility ?? d.visibility,
    filters: edit.filters ? storedFilters(edit.filters) : d.filters,
  };
  const tiles = edit.tiles ? storedTiles(edit.tiles) : d.tiles;
  if (unchanged(d, fields, tiles)) return viewOf(deps, p, d);
  if (!(await updateDashboard(deps.store, { id, fromVersion: d.version, fields, tiles, at: deps.clock.now() }))) throw new DashboardEditedMeanwhile();
  return viewOf(deps, p, (await findDashboard(deps.store, p.orgId, id))!);
}

/** Deletes a dashboard the caller may edit, with its tiles and share links. */
export async function removeDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<void> {
  await editableDashboard(deps, p, id);
  await deleteDashboard(deps.store, p.orgId, id);
}
