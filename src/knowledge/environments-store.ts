// SQL of the environments table.
import type { Db } from '../store/index.ts';

/** A warehouse target override of one connection. */
export interface EnvironmentTarget {
  schema?: string;
  database?: string;
  project?: string;
  dataset?: string;
}

export interface EnvironmentRow {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  color: string;
  source_env_id: string | null;
  throwaway: number;
  targets: string;
  created_by: string | null;
  created_at: number;
  last_activity_at: number;
}

/** The local branch of an environment. */
export function envBranch(env: Pick<EnvironmentRow, 'id'>): string {
  return `env/${env.id}`;
}

/** The mirrored branch name of a lasting environment. */
export function mirrorBranch(env: Pick<EnvironmentRow, 'slug'>): string {
  return `service/env-${env.slug}`;
}

export function findEnvironment(db: Db, orgId: string, id: string): EnvironmentRow | undefined {
  return db.prepare('SELECT * FROM environments WHERE org_id = ? AND id = ?').get(orgId, id) as EnvironmentRow | undefined;
}

export function listEnvironmentRows(db: Db, orgId: string): EnvironmentRow[] {
  return db.prepare('SELECT * FROM environments WHERE org_id = ? ORDER BY created_at, id').all(orgId) as EnvironmentRow[];
}

export function insertEnvironment(db: Db, row: EnvironmentRow): void {
  db.prepare(
    `INSERT INTO environments (id, org_id, name, slug, color, source_env_id, throwaway, targets, created_by, created_at, last_activity_at)
     VALUES (@id, @org_id, @name, @slug, @color, @source_env_id, @throwaway, @targets, @created_by, @created_at, @last_activity_at)`,
  ).run(row);
}

export function removeEnvironment(db: Db, orgId: string, id: string): void {
  db.prepare('DELETE FROM environments WHERE org_id = ? AND id = ?').run(orgId, id);
}

/** Records activity (reads and writes scoped to the environment keep a throwaway one alive). */
export function touchEnvironment(db: Db, id: string, now: number): void {
  db.prepare('UPDATE environments SET last_activity_at = ? WHERE id = ? AND last_activity_at < ?').run(now, id, now);
}

/** A slug not yet used in the organization: `name`, `name-2`, `name-3`... */
export function freeSlug(db: Db, orgId: string, base: string): string {
  const taken = new Set(
    (db.prepare("SELECT slug FROM environments WHERE org_id = ? AND (slug = ? OR slug LIKE ? || '-%')").pluck().all(orgId, base, base) as string[]),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export function parseTargets(row: Pick<EnvironmentRow, 'targets'>): Record<string, EnvironmentTarget> {
  return JSON.parse(row.targets) as Record<string, EnvironmentTarget>;
}
