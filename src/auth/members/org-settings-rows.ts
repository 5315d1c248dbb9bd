// The SQL of organization settings (org_settings, migration 0014). Workspaces follow their base
// organization, so every reader resolves the base first.
import type { Clock } from '../../clock.ts';
import { statement, type Db } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export interface OrgSettingsRow {
  join_default_role: Role;
  session_lifetime_seconds: number | null;
}

const DEFAULTS: OrgSettingsRow = { join_default_role: 'user', session_lifetime_seconds: null };

/** The settings of an organization (or of the base organization of a workspace); defaults when unset. */
export function orgSettingsOf(db: Db, orgId: string): OrgSettingsRow {
  const row = statement(
    db,
    `SELECT s.join_default_role, s.session_lifetime_seconds FROM organizations o
     JOIN org_settings s ON s.org_id = COALESCE(o.base_org_id, o.id) WHERE o.id = ?`,
  ).get(orgId) as OrgSettingsRow | undefined;
  return row ?? DEFAULTS;
}

/** Writes the settings row of a base organization. */
export function saveOrgSettings(db: Db, clock: Clock, orgId: string, s: OrgSettingsRow): void {
  db.prepare(
    `INSERT INTO org_settings (org_id, join_default_role, session_lifetime_seconds, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id) DO UPDATE SET join_default_role = excluded.join_default_role,
       session_lifetime_seconds = excluded.session_lifetime_seconds, updated_at = excluded.updated_at`,
  ).run(orgId, s.join_default_role, s.session_lifetime_seconds, clock.now());
}
