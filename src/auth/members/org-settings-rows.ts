// The SQL of organization settings (org_settings, migration 0014). Workspaces follow their base
// organization, so every reader resolves the base first.
import { sql } from 'kysely';
import type { Executor, Query } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export interface OrgSettingsRow {
  join_default_role: Role;
  session_lifetime_seconds: number | null;
}

const DEFAULTS: OrgSettingsRow = { join_default_role: 'user', session_lifetime_seconds: null };

/** The settings row of an organization (of its base organization, for a workspace); no row when unset. */
export const orgSettingsQuery = (orgId: string) =>
  sql<OrgSettingsRow>`SELECT s.join_default_role, s.session_lifetime_seconds FROM organizations o
    JOIN org_settings s ON s.org_id = COALESCE(o.base_org_id, o.id) WHERE o.id = ${orgId}`;

/** The settings of an organization (or of the base organization of a workspace); defaults when unset. */
export async function readOrgSettings(x: Executor, orgId: string): Promise<OrgSettingsRow> {
  return (await x.one(orgSettingsQuery(orgId))) ?? DEFAULTS;
}

/** The write of a base organization's settings row, for a batch. */
export function saveOrgSettingsQuery(orgId: string, s: OrgSettingsRow, now: number): Query {
  return sql`INSERT INTO org_settings (org_id, join_default_role, session_lifetime_seconds, updated_at)
    VALUES (${orgId}, ${s.join_default_role}, ${s.session_lifetime_seconds}, ${now})
    ON CONFLICT (org_id) DO UPDATE SET join_default_role = excluded.join_default_role,
      session_lifetime_seconds = excluded.session_lifetime_seconds, updated_at = excluded.updated_at`;
}
