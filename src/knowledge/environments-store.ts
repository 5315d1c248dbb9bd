// SQL of the environments table.
import { sql } from 'kysely';
import { asciiLower, type Executor } from '../store/index.ts';

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

export async function findEnvironment(x: Executor, orgId: string, id: string): Promise<EnvironmentRow | undefined> {
  return x.one(sql<EnvironmentRow>`SELECT * FROM environments WHERE org_id = ${orgId} AND id = ${id}`);
}

export async function listEnvironmentRows(x: Executor, orgId: string, only?: { throwaway: boolean }): Promise<EnvironmentRow[]> {
  const kind = only === undefined ? sql`` : sql` AND throwaway = ${only.throwaway ? 1 : 0}`;
  return x.all(sql<EnvironmentRow>`SELECT * FROM environments WHERE org_id = ${orgId}${kind} ORDER BY created_at, id`);
}

/** True when the organization has an environment (its knowledge repository then holds history). */
export async function hasEnvironments(x: Executor, orgId: string): Promise<boolean> {
  return (await x.one(sql<{ one: number }>`SELECT 1 AS one FROM environments WHERE org_id = ${orgId} LIMIT 1`)) !== undefined;
}

/** Organizations with at least one environment, with their environments' ids and branches. */
export async function environmentsByOrg(x: Executor): Promise<Map<string, EnvironmentRow[]>> {
  const out = new Map<string, EnvironmentRow[]>();
  for (const row of await x.all(sql<EnvironmentRow>`SELECT * FROM environments ORDER BY org_id, created_at, id`)) out.set(row.org_id, [...(out.get(row.org_id) ?? []), row]);
  return out;
}

/** Throwaway environments of every organization idle since `cutoff` (the expiry's candidates). */
export async function idleThrowawayRows(x: Executor, cutoff: number): Promise<EnvironmentRow[]> {
  return x.all(sql<EnvironmentRow>`SELECT * FROM environments WHERE throwaway = 1 AND last_activity_at <= ${cutoff} ORDER BY last_activity_at, id`);
}

/** Inserts the row unless its slug or name (ASCII case folded) is taken in the organization meanwhile; false then. */
export async function insertEnvironment(x: Executor, r: EnvironmentRow): Promise<boolean> {
  const { changes } = await x.run(sql`INSERT INTO environments (id, org_id, name, slug, color, source_env_id, throwaway, targets, created_by, created_at, last_activity_at)
     VALUES (${r.id}, ${r.org_id}, ${r.name}, ${r.slug}, ${r.color}, ${r.source_env_id}, ${r.throwaway}, ${r.targets}, ${r.created_by}, ${r.created_at}, ${r.last_activity_at})
     ON CONFLICT DO NOTHING`);
  return changes === 1;
}

/** The organization's environment of this name, ignoring ASCII case (names are unique so). */
export async function environmentNamed(x: Executor, orgId: string, name: string): Promise<EnvironmentRow | undefined> {
  return x.one(sql<EnvironmentRow>`SELECT * FROM environments WHERE org_id = ${orgId} AND ${asciiLower(x, sql.ref('name'))} = ${asciiLower(x, sql`${name}`)}`);
}

export async function removeEnvironment(x: Executor, orgId: string, id: string): Promise<void> {
  await x.run(sql`DELETE FROM environments WHERE org_id = ${orgId} AND id = ${id}`);
}

/** Records activity (reads and writes scoped to the environment keep a throwaway one alive). */
export async function touchEnvironment(x: Executor, orgId: string, id: string, now: number): Promise<void> {
  await x.run(sql`UPDATE environments SET last_activity_at = ${now} WHERE org_id = ${orgId} AND id = ${id} AND last_activity_at < ${now}`);
}

/** Changes some columns of the organization's environment and records activity; the row after, or undefined when gone. */
export async function updateEnvironment(
  x: Executor,
  orgId: string,
  id: string,
  set: { throwaway?: 0; targets?: string },
  now: number,
): Promise<EnvironmentRow | undefined> {
  const columns = [
    ...(set.throwaway === undefined ? [] : [sql`throwaway = ${set.throwaway}`]),
    ...(set.targets === undefined ? [] : [sql`targets = ${set.targets}`]),
    sql`last_activity_at = ${now}`,
  ];
  return x.one(sql<EnvironmentRow>`UPDATE environments SET ${sql.join(columns)} WHERE org_id = ${orgId} AND id = ${id} RETURNING *`);
}

/** A slug not yet used in the organization: `name`, `name-2`, `name-3`... */
export async function freeSlug(x: Executor, orgId: string, base: string): Promise<string> {
  const rows = await x.all(sql<{ slug: string }>`SELECT slug FROM environments WHERE org_id = ${orgId} AND (slug = ${base} OR slug LIKE ${base} || '-%')`);
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export function parseTargets(row: Pick<EnvironmentRow, 'targets'>): Record<string, EnvironmentTarget> {
  return JSON.parse(row.targets) as Record<string, EnvironmentTarget>;
}
