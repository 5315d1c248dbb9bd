// Group membership driven by single sign-on: the groups a provider manages, by name, are joined or
// left to match what the identity provider says; groups named for the first time are created.
import { newId } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';

/** Puts the user in `groups` and out of the other `managed` groups (all by name). */
export function syncManagedGroups(db: Db, p: { orgId: string; userId: string; groups: string[]; managed: string[] }): void {
  transact(db, () => {
    const idOf = (name: string): string => {
      const found = db.prepare('SELECT id FROM groups WHERE org_id = ? AND name = ?').pluck().get(p.orgId, name) as string | undefined;
      if (found) return found;
      const id = newId(8);
      db.prepare('INSERT INTO groups (org_id, id, name) VALUES (?, ?, ?)').run(p.orgId, id, name);
      return id;
    };
    const join = db.prepare('INSERT OR IGNORE INTO group_members (org_id, group_id, user_id) VALUES (?, ?, ?)');
    const leave = db.prepare('DELETE FROM group_members WHERE org_id = ? AND group_id = ? AND user_id = ?');
    for (const name of p.managed) {
      const id = idOf(name);
      if (p.groups.includes(name)) join.run(p.orgId, id, p.userId);
      else leave.run(p.orgId, id, p.userId);
    }
  });
}
