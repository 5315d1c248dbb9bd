// The members module's facts port: attributes and groups live in src/data (row-level security reads
// them), the admin member pages read and write them through here.
import type { MemberFacts } from '../auth/members/index.ts';
import { forgetMemberFacts, memberFactsOf, memberGroupsQueries, unknownGroupIds, userAttributesQueries } from '../data/rls/index.ts';
import type { DataStore } from '../data/tables.ts';

export function memberFactsPort(store: DataStore): MemberFacts {
  return {
    factsOf: (orgId, userIds) => memberFactsOf(store, orgId, userIds),
    unknownGroups: (orgId, groupIds) => unknownGroupIds(store, orgId, groupIds),
    async setFacts(orgId, userId, { attributes, groups }) {
      // Attributes and groups change together or not at all.
      await store.batch([
        ...(attributes ? userAttributesQueries(store, orgId, userId, attributes) : []),
        ...(groups ? memberGroupsQueries(store, orgId, userId, groups) : []),
      ]);
    },
    forget: (orgId, userId) => forgetMemberFacts(store, orgId, userId),
  };
}
