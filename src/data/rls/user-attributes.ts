// The SQL of user attributes and groups, the facts row filters are written against.
import type { Role } from '../../auth/index.ts';
import { Conflict } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';

/** Who a row filter is evaluated for. */
export interface RlsUser {
  id: string;
  email: string;
  role: Role;
  attributes: Record<string, string>;
  /** Ids and names of the user's groups. */
  groups: string[];
}

/** Loads a user's attributes and groups in an organization. */
export function loadRlsUser(db: Db, orgId: string, user: { id: string; email: string; role: Role }): RlsUser {
  const attrs = db.prepare('SELECT name, value FROM user_attributes WHERE org_id = ? AND user_id = ?').all(orgId, user.id) as { name: string; value: string }[];
  const groups = db
    .prepare('SELECT g.id, g.name FROM group_members m JOIN groups g ON g.org_id = m.org_id AND g.id = m.group_id WHERE m.org_id = ? AND m.user_id = ?')
    .all(orgId, user.id) as { id: string; name: string }[];
  return {
    ...user,
    attributes: Object.fromEntries(attrs.map((a) => [a.name, a.value])),
    groups: [...new Set(groups.flatMap((g) => [g.id, g.name]))],
  };
}

/** Replaces a user's attributes in an organization with `attributes`. */
export function setUserAttributes(db: Db, orgId: string, userId: string, attributes: Record<string, string>): void {
  transact(db, () => {
    db.prepare('DELETE FROM user_attributes WHERE org_id = ? AND user_id = ?').run(orgId, userId);
    const ins = db.prepare('INSERT INTO user_attributes (org_id, user_id, name, value) VALUES (?, ?, ?, ?)');
    for (const [name, value] of Object.entries(attributes)) ins.run(orgId, userId, name, value);
  });
}

export interface GroupRow {
  id: string;
  name: string;
  members: string[];
}

/** Lists the groups of an organization with their members. */
export function listGroups(db: Db, orgId: string): GroupRow[] {
  const groups = db.prepare('SELECT id, name FROM groups WHERE org_id = ? ORDER BY name').all(orgId) as { id: string; name: string }[];
  const members = db.prepare('SELECT group_id, user_id FROM group_members WHERE org_id = ? ORDER BY user_id').all(orgId) as { group_id: string; user_id: string }[];
  return groups.map((g) => ({ ...g, members: members.filter((m) => m.group_id === g.id).map((m) => m.user_id) }));
}

/** Creates or renames a group and replaces its members; returns the group. */
export function saveGroup(db: Db, orgId: string, { id = newId(8), name, members }: { id?: string; name: string; members: string[] }): GroupRow {
  const clash = db.prepare('SELECT 1 FROM groups WHERE org_id = ? AND name = ? AND id <> ?').get(orgId, name, id);
  if (clash) throw new Conflict(`A group named ${name} already exists`, 'GROUP_EXISTS');
  transact(db, () => {
    db.prepare('INSERT INTO groups (org_id, id, name) VALUES (?, ?, ?) ON CONFLICT (org_id, id) DO UPDATE SET name = excluded.name').run(orgId, id, name);
    db.prepare('DELETE FROM group_members WHERE org_id = ? AND group_id = ?').run(orgId, id);
    const ins = db.prepare('INSERT OR IGNORE INTO group_members (org_id, group_id, user_id) VALUES (?, ?, ?)');
    for (const u of members) ins.run(orgId, id, u);
  });
  return listGroups(db, orgId).find((g) => g.id === id)!;
}

/** Deletes a group; false when it does not exist in the organization. */
export function deleteGroup(db: Db, orgId: string, id: string): boolean {
  return db.prepare('DELETE FROM groups WHERE org_id = ? AND id = ?').run(orgId, id).changes === 1;
}
