// The members module's facts port: attributes and groups live in src/data (row-level security reads
// them), the admin member pages read and write them through here.
import type { MemberFacts } from '../auth/members/index.ts';
import { forgetMemberFacts, memberFactsOf, setMemberGroups, setUserAttributes, unknownGroupIds } from '../data/rls/index.ts';
import type { Db } from '../store/index.ts';
import { transact } from '../store/index.ts';

export function memberFactsPort(db: Db): MemberFacts {
  return {
    factsOf: (orgId, userIds) => memberFactsOf(db, orgId, userIds),
    unknownGroups: (orgId, groupIds) => unknownGroupIds(db, orgId, groupIds),
    setFacts(orgId, userId, { attributes, groups }) {
      transact(db, () => {
        if (attributes) setUserAttributes(db, orgId, userId, attributes);
        if (groups) setMemberGroups(db, orgId, userId, groups);
      });
    },
    forget: (orgId, userId) => forgetMemberFacts(db, orgId, userId),
  };
}
