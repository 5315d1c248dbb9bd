// The SQL of organization settings (org_settings, migrations 0014, 0107 and 0117). Workspaces follow their
// base organization, so every reader resolves the base first.
import { sql } from 'kysely';
import type { Executor, Query } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export interface OrgSettingsRow {
  join_default_role: Role;
  session_lifetime_seconds: number | null;
  /** 1: knowledge writes to production are refused; changes arrive by merging an environment. */
  production_through_environments: number;
  /** 1: subscriptions may mail addresses outside the organization. */
  external_recipients: number;
}

const DEFAULTS: OrgSettingsRow = { join_default_role: 'user', session_lifetime_seconds: null, production_through_environments: 0, external_recipients: 0 };

/** The settings of an organization created from now on: production changes only through environments. */
export const NEW_ORG_SETTINGS: OrgSettingsRow = { ...DEFAULTS, production_through_environments: 1 };

/** The settings row of an organization (of its base organization, for a workspace); no row when unset. */
export const orgSettingsQuery = (orgId: string) =>
  sql<OrgSettingsRow>`SELECT s.join_default_role, s.session_lifetime_seconds, s.production_through_environments, s.external_recipients FROM organizations o
    JOIN org_settings s ON s.org_id = COALESCE(o.base_org_id, o.id) WHERE o.id = ${orgId}`;

/** The settings of an organization (or of the base organization of a workspace); defaults when unset. */
export async function readOrgSettings(x: Executor, orgId: string): Promise<OrgSettingsRow> {
  return (await x.one(orgSettingsQuery(orgId))) ?? DEFAULTS;
}

/** Whether the organization (or a workspace's base) changes production only through environments. */
export async function productionThroughEnvironments(x: Executor, orgId: string): Promise<boolean> {
  return Number((await readOrgSettings(x, orgId)).production_through_environments) === 1;
}

/** Whether subscriptions of the organization (or a workspace's base) may mail addresses outside it. */
export async function externalRecipientsAllowed(x: Executor, orgId: string): Promise<boolean> {
  return Number((await readOrgSettings(x, orgId)).external_recipients) === 1;
}

/** The write of a base organization's settings row, for a batch. */
export function saveOrgSettingsQuery(orgId: string, s: OrgSettingsRow, now: number): Query {
  return sql`INSERT INTO org_settings (org_id, join_default_role, session_lifetime_seconds, production_through_environments, external_recipients, updated_at)
    VALUES (${orgId}, ${s.join_default_role}, ${s.session_lifetime_seconds}, ${s.production_through_environments}, ${s.external_recipients}, ${now})
    ON CONFLICT (org_id) DO UPDATE SET join_default_role = excluded.join_default_role,
      session_lifetime_seconds = excluded.session_lifetime_seconds,
      production_through_environments = excluded.production_through_environments, external_recipients = excluded.external_recipients, updated_at = excluded.updated_at`;
}
