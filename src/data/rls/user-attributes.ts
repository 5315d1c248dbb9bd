// The SQL of user attributes and groups, the facts row filters are written against.
import { sql } from 'kysely';
import type { Role } from '../../auth/index.ts';
import { Conflict } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import { byteOrder, type Query } from '../../store/index.ts';
import type { DataStore } from '../tables.ts';
import { checkAttributes, isReservedAttribute } from './attribute-rules.ts';

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
export async function loadRlsUser(store: DataStore, orgId: string, user: { id: string; email: string; role: Role }): Promise<RlsUser> {
  const attrs = await store.all(store.db.selectFrom('user_attributes').select(['name', 'value']).where('org_id', '=', orgId).where('user_id', '=', user.id));
  const groups = await store.all(
    store.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', (j) => j.onRef('g.org_id', '=', 'm.org_id').onRef('g.id', '=', 'm.group_id'))
      .select(['g.id', 'g.name'])
      .where('m.org_id', '=', orgId)
      .where('m.user_id', '=', user.id),
  );
  return {
    ...user,
    // A reserved name stored before the rule existed is never read: the account answers it.
    attributes: Object.fromEntries(attrs.filter((a) => !isReservedAttribute(a.name)).map((a) => [a.name, a.value])),
    groups: [...new Set(groups.flatMap((g) => [g.id, g.name]))],
  };
}

/**
 * The statements that replace a user's attributes in an organization with `attributes`, for a batch.
 * Every write of attributes comes through here, so the rules are checked here (422, nothing written).
 */
export function userAttributesQueries(store: DataStore, orgId: string, userId: string, attributes: Record<string, string>): Query[] {
  checkAttributes(attributes);
  const { db } = store;
  const rows = Object.entries(attributes).map(([name, value]) => ({ org_id: orgId, user_id: userId, name, value }));
  return [
    db.deleteFrom('user_attributes').where('org_id', '=', orgId).where('user_id', '=', userId),
    ...(rows.length ? [db.insertInto('user_attributes').values(rows)] : []),
  ];
}

/** Replaces a user's attributes in an organization with `attributes`. */
export async function setUserAttributes(store: DataStore, orgId: string, userId: string, attributes: Record<string, string>): Promise<void> {
  await store.batch(userAttributesQueries(store, orgId, userId, attributes));
}

export interface GroupRow {
  id: string;
  name: string;
  members: string[];
}

/** Lists the groups of an organization with their members. */
export async function listGroups(store: DataStore, orgId: string): Promise<GroupRow[]> {
  const groups = await store.all(store.db.selectFrom('groups').select(['id', 'name']).where('org_id', '=', orgId).orderBy(byteOrder(store, 'name')));
  const members = await store.all(store.db.selectFrom('group_members').select(['group_id', 'user_id']).where('org_id', '=', orgId).orderBy(byteOrder(store, 'user_id')));
  return groups.map((g) => ({ ...g, members: members.filter((m) => m.group_id === g.id).map((m) => m.user_id) }));
}

/**
 * Creates or renames a group and replaces its members, in one batch; returns the group. The name is
 * claimed by the upsert itself (its WHERE skips a name another group holds), so two admins saving
 * the same name at once cannot both win.
 */
export async function saveGroup(store: DataStore, orgId: string, { id = newId(8), name, members }: { id?: string; name: string; members: string[] }): Promise<GroupRow> {
  const { db } = store;
  const taken = db.selectFrom('groups').select('id').where('org_id', '=', orgId).where('name', '=', name).where('id', '<>', id);
  const users = [...new Set(members)];
  const save = store.batch(
    [
      db
        .insertInto('groups')
        .columns(['org_id', 'id', 'name'])
        .expression(db.selectNoFrom([sql.val(orgId).as('org_id'), sql.val(id).as('id'), sql.val(name).as('name')]).where((eb) => eb.not(eb.exists(taken))))
        .onConflict((oc) => oc.columns(['org_id', 'id']).doUpdateSet({ name })),
      db.deleteFrom('group_members').where('org_id', '=', orgId).where('group_id', '=', id),
      ...(users.length ? [db.insertInto('group_members').values(users.map((u) => ({ org_id: orgId, group_id: id, user_id: u }))).onConflict((oc) => oc.doNothing())] : []),
    ],
    { require: [0] },
  );
  // Two saves of one name under different ids at once both pass the check on PostgreSQL, and the
  // unique index on (org_id, name) refuses the later one: a clash to be named, not a failure.
  const res = await save.catch(async (err: unknown) => {
    if (await store.one(taken)) return { ok: false as const };
    throw err;
  });
  if (!res.ok) throw new Conflict(`A group named ${name} already exists`, 'GROUP_EXISTS');
  return (await listGroups(store, orgId)).find((g) => g.id === id)!;
}

/** Deletes a group; false when it does not exist in the organization. */
export async function deleteGroup(store: DataStore, orgId: string, id: string): Promise<boolean> {
  return (await store.run(store.db.deleteFrom('groups').where('org_id', '=', orgId).where('id', '=', id))).changes === 1;
}
