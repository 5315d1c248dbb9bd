// What a chosen member would see under row-level security: the filters of every production table
// that has any, as they would run for that member. Membership and the account are auth's; the
// attributes, groups, connections and filters are the data plane's.
import { getMembership, getUser, type Principal } from '../auth/index.ts';
import { listConnections } from '../data/connections/index.ts';
import type { DataDeps } from '../data/deps.ts';
import { DRIVERS } from '../data/drivers/registry.ts';
import { loadRlsUser, policyFor } from '../data/rls/index.ts';
import type { SqlDialect } from '../data/types.ts';
import { NotFound } from '../errors.ts';

/** One filtered table for the member: `all` rows when no filter applies, `none` when a value the filter needs is missing. */
export interface PreviewTable {
  connection: string;
  schema: string;
  name: string;
  sees: 'all' | 'filtered' | 'none';
  /** The SQL condition added to the member's queries; null when none applies. */
  filter: string | null;
}

export interface RowSecurityPreview {
  user_id: string;
  email: string;
  role: string;
  attributes: Record<string, string>;
  groups: string[];
  tables: PreviewTable[];
}

// renderFilter writes this for a filter whose placeholder has no value: the member sees nothing.
const DENY = '(1 = 0)';

/** The effective row filters of a member of the admin's organization; 404 for anyone else. */
export async function previewRowSecurity(s: { data: DataDeps }, admin: Principal, userId: string): Promise<RowSecurityPreview> {
  const [membership, account] = await Promise.all([getMembership(s.data.store, userId, admin.orgId), getUser(s.data.store, userId)]);
  if (!membership || !account) throw new NotFound('User not found', 'USER_NOT_FOUND');
  const user = await loadRlsUser(s.data.store, admin.orgId, { id: userId, email: account.email, role: membership.role });
  const dialects = new Map((await listConnections(s.data, admin.orgId)).map((c) => [c.id, DRIVERS[c.type].dialect]));
  const tables = (await s.data.docs.listTables(admin.orgId, undefined)).flatMap((doc): PreviewTable[] => {
    if ((doc.row_filters?.length ?? 0) === 0) return [];
    // A table of a deleted connection still shows its filters, quoted as standard SQL.
    const dialect: SqlDialect = dialects.get(doc.connection) ?? 'sqlite';
    const filter = policyFor(doc, user, dialect);
    const sees = filter === undefined ? 'all' : filter.includes(DENY) ? 'none' : 'filtered';
    return [{ connection: doc.connection, schema: doc.schema, name: doc.name, sees, filter: filter ?? null }];
  });
  return { user_id: userId, email: account.email, role: membership.role, attributes: user.attributes, groups: user.groups, tables };
}
