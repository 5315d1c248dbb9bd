// SQL of the dashboard_shares table: a link is a row under its own random id; deleting it revokes.
import { sql } from 'kysely';
import type { Executor } from '../store/index.ts';

export interface ShareRow {
  id: string;
  dashboard_id: string;
  org_id: string;
  created_by: string;
  created_at: number;
}

/** Stores a new link. */
export async function insertShare(x: Executor, s: ShareRow): Promise<void> {
  await x.run(sql`INSERT INTO dashboard_shares (id, dashboard_id, org_id, created_by, created_at) VALUES (${s.id}, ${s.dashboard_id}, ${s.org_id}, ${s.created_by}, ${s.created_at})`);
}

/** A link by its id, or undefined once revoked. */
export async function findShare(x: Executor, id: string): Promise<ShareRow | undefined> {
  const row = await x.one(sql<ShareRow>`SELECT * FROM dashboard_shares WHERE id = ${id}`);
  return row && { ...row, created_at: Number(row.created_at) };
}

/** The links of a dashboard, newest first. */
export async function listShares(x: Executor, dashboardId: string): Promise<ShareRow[]> {
  const rows = await x.all(sql<ShareRow>`SELECT * FROM dashboard_shares WHERE dashboard_id = ${dashboardId} ORDER BY created_at DESC, id DESC`);
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

/** Revokes one link of a dashboard; false when it was not one. */
export async function deleteShare(x: Executor, dashboardId: string, id: string): Promise<boolean> {
  const res = await x.run(sql`DELETE FROM dashboard_shares WHERE dashboard_id = ${dashboardId} AND id = ${id}`);
  return res.changes === 1;
}
