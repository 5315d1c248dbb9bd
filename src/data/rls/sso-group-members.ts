// Group membership driven by single sign-on: the groups a provider manages, by name, are joined or
// left to match what the identity provider says; groups named for the first time are created.
// One batch of statements that name groups by name, never by an id read before: two sign-ins that
// create the same new group at once (on two replicas) meet on its unique name, and the later one
// finds the earlier one's group instead of failing.
import { newId } from '../../security/index.ts';
import type { DataStore } from '../tables.ts';

/** Puts the user in `groups` and out of the other `managed` groups (all by name). */
export async function syncManagedGroups(store: DataStore, p: { orgId: string; userId: string; groups: string[]; managed: string[] }): Promise<void> {
  const { db } = store;
  // Sorted, so that concurrent batches take the rows' locks in the same order.
  const managed = [...new Set(p.managed)].sort();
  if (managed.length === 0) return;
  const join = managed.filter((name) => p.groups.includes(name));
  const leave = managed.filter((name) => !p.groups.includes(name));
  const named = (names: string[]) => db.selectFrom('groups').where('org_id', '=', p.orgId).where('name', 'in', names);
  await store.batch([
    db
      .insertInto('groups')
      .values(managed.map((name) => ({ org_id: p.orgId, id: newId(8), name })))
      .onConflict((oc) => oc.doNothing()),
    ...(join.length
      ? [
          db
            .insertInto('group_members')
            .columns(['org_id', 'group_id', 'user_id'])
            .expression(named(join).select((eb) => ['org_id', 'id', eb.val(p.userId).as('user_id')]))
            .onConflict((oc) => oc.doNothing()),
        ]
      : []),
    ...(leave.length
      ? [db.deleteFrom('group_members').where('org_id', '=', p.orgId).where('user_id', '=', p.userId).where('group_id', 'in', named(leave).select('id'))]
      : []),
  ]);
}
