// Attributes and groups of several members at once, and group membership by member: what the admin
// member pages read and write (issue 23). The tables are this domain's (user_attributes, groups).
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';

export interface MemberFactsRow {
  attributes: Record<string, string>;
  groups: { id: string; name: string }[];
}

/** Attributes and groups of the given members of an organization, by user id. */
export function memberFactsOf(db: Db, orgId: string, userIds: string[]): Map<string, MemberFactsRow> {
  const out = new Map<string, MemberFactsRow>();
  if (userIds.length === 0) return out;
  const ids = JSON.stringify(userIds);
  const entry = (id: string) => out.get(id) ?? (out.set(id, { attributes: {}, groups: [] }).get(id) as MemberFactsRow);
  const attrs = db
    .prepare('SELECT user_id, name, value FROM user_attributes WHERE org_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY name')
    .all(orgId, ids) as { user_id: string; name: string; value: string }[];
  for (const a of attrs) entry(a.user_id).attributes[a.name] = a.value;
  const groups = db
    .prepare(
      `SELECT m.user_id, g.id, g.name FROM group_members m JOIN groups g ON g.org_id = m.org_id AND g.id = m.group_id
       WHERE m.org_id = ? AND m.user_id IN (SELECT value FROM json_each(?)) ORDER BY g.name`,
    )
    .all(orgId, ids) as { user_id: string; id: string; name: string }[];
  for (const g of groups) entry(g.user_id).groups.push({ id: g.id, name: g.name });
  return out;
}

/** The ids among `groupIds` that name no group of the organization. */
export function unknownGroupIds(db: Db, orgId: string, groupIds: string[]): string[] {
  const known = new Set(db.prepare('SELECT id FROM groups WHERE org_id = ?').pluck().all(orgId) as string[]);
  return groupIds.filter((id) => !known.has(id));
}

/** Puts a member in exactly the given groups of the organization. */
export function setMemberGroups(db: Db, orgId: string, userId: string, groupIds: string[]): void {
  transact(db, () => {
    db.prepare('DELETE FROM group_members WHERE org_id = ? AND user_id = ?').run(orgId, userId);
    const ins = db.prepare('INSERT OR IGNORE INTO group_members (org_id, group_id, user_id) VALUES (?, ?, ?)');
    for (const g of groupIds) ins.run(orgId, g, userId);
  });
}

/** Forgets a member's attributes and group memberships in an organization. */
export function forgetMemberFacts(db: Db, orgId: string, userId: string): void {
  db.prepare('DELETE FROM user_attributes WHERE org_id = ? AND user_id = ?').run(orgId, userId);
  db.prepare('DELETE FROM group_members WHERE org_id = ? AND user_id = ?').run(orgId, userId);
}
