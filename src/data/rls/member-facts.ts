// Attributes and groups of several members at once, and group membership by member: what the admin
// member pages read and write (issue 23). The tables are this domain's (user_attributes, groups).
import { byteOrder, type Query } from '../../store/index.ts';
import type { DataStore } from '../tables.ts';
import { isReservedAttribute } from './attribute-rules.ts';

export interface MemberFactsRow {
  attributes: Record<string, string>;
  groups: { id: string; name: string }[];
}

/** Attributes and groups of the given members of an organization, by user id. */
export async function memberFactsOf(store: DataStore, orgId: string, userIds: string[]): Promise<Map<string, MemberFactsRow>> {
  const out = new Map<string, MemberFactsRow>();
  if (userIds.length === 0) return out;
  const entry = (id: string) => out.get(id) ?? (out.set(id, { attributes: {}, groups: [] }).get(id) as MemberFactsRow);
  const attrs = await store.all(
    store.db.selectFrom('user_attributes').select(['user_id', 'name', 'value']).where('org_id', '=', orgId).where('user_id', 'in', userIds).orderBy(byteOrder(store, 'name')),
  );
  // A reserved name stored before the rule is not an attribute: the account answers it.
  for (const a of attrs) if (!isReservedAttribute(a.name)) entry(a.user_id).attributes[a.name] = a.value;
  const groups = await store.all(
    store.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', (j) => j.onRef('g.org_id', '=', 'm.org_id').onRef('g.id', '=', 'm.group_id'))
      .select(['m.user_id', 'g.id', 'g.name'])
      .where('m.org_id', '=', orgId)
      .where('m.user_id', 'in', userIds)
      .orderBy(byteOrder(store, 'g.name')),
  );
  for (const g of groups) entry(g.user_id).groups.push({ id: g.id, name: g.name });
  return out;
}

/** The ids among `groupIds` that name no group of the organization. */
export async function unknownGroupIds(store: DataStore, orgId: string, groupIds: string[]): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const known = await store.all(store.db.selectFrom('groups').select('id').where('org_id', '=', orgId).where('id', 'in', groupIds));
  const ids = new Set(known.map((g) => g.id));
  return groupIds.filter((id) => !ids.has(id));
}

/**
 * The statements that put a member in exactly the given groups of the organization, for a batch. The
 * rows are taken from the groups that exist when the batch runs, so a group deleted since the caller
 * checked is skipped rather than failing the batch on its foreign key.
 */
export function memberGroupsQueries(store: DataStore, orgId: string, userId: string, groupIds: string[]): Query[] {
  const { db } = store;
  const ids = [...new Set(groupIds)];
  const clear = db.deleteFrom('group_members').where('org_id', '=', orgId).where('user_id', '=', userId);
  if (ids.length === 0) return [clear];
  const join = db
    .insertInto('group_members')
    .columns(['org_id', 'group_id', 'user_id'])
    .expression(db.selectFrom('groups').select((eb) => ['org_id', 'id', eb.val(userId).as('user_id')]).where('org_id', '=', orgId).where('id', 'in', ids))
    .onConflict((oc) => oc.doNothing());
  return [clear, join];
}

/** Forgets a member's attributes and group memberships in an organization. */
export async function forgetMemberFacts(store: DataStore, orgId: string, userId: string): Promise<void> {
  const { db } = store;
  await store.batch([
    db.deleteFrom('user_attributes').where('org_id', '=', orgId).where('user_id', '=', userId),
    db.deleteFrom('group_members').where('org_id', '=', orgId).where('user_id', '=', userId),
  ]);
}
