// Row-security facts of one member: attributes and groups are the data plane's (src/data/rls),
// membership is auth's, so the check that a user belongs to the admin's organization is made here.
import { getMembership, type Principal } from '../auth/index.ts';
import { deleteGroup, listGroups, loadRlsUser, saveGroup, setUserAttributes, type GroupRow } from '../data/rls/index.ts';
import type { DataStore } from '../data/tables.ts';
import { NotFound } from '../errors.ts';

export type RowSecurityAdmin = ReturnType<typeof rowSecurityAdmin>;

/** The admin's row-security operations; each answers 404 for a user outside the admin's organization. */
export function rowSecurityAdmin(store: DataStore) {
  const member = async (orgId: string, userId: string) => {
    if (!(await getMembership(store, userId, orgId))) throw new NotFound('User not found', 'USER_NOT_FOUND');
  };
  return {
    async attributesOf(admin: Principal, userId: string) {
      await member(admin.orgId, userId);
      const u = await loadRlsUser(store, admin.orgId, { id: userId, email: '', role: 'user' });
      return { attributes: u.attributes, groups: u.groups };
    },
    async setAttributes(admin: Principal, userId: string, attributes: Record<string, string>) {
      await member(admin.orgId, userId);
      await setUserAttributes(store, admin.orgId, userId, attributes);
    },
    listGroups: (admin: Principal) => listGroups(store, admin.orgId),
    async saveGroup(admin: Principal, group: GroupRow): Promise<GroupRow> {
      await Promise.all([...new Set(group.members)].map((m) => member(admin.orgId, m)));
      return saveGroup(store, admin.orgId, group);
    },
    async deleteGroup(admin: Principal, groupId: string) {
      if (!(await deleteGroup(store, admin.orgId, groupId))) throw new NotFound('Group not found', 'GROUP_NOT_FOUND');
    },
  };
}
