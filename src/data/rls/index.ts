export { applyRowFilters, docFor, type ApplyRowFiltersArgs } from './apply-row-filters.ts';
export { policyFor, renderFilter, sqlLiteral } from './render-filter.ts';
export { deleteGroup, listGroups, loadRlsUser, saveGroup, setUserAttributes, userAttributesQueries, type GroupRow, type RlsUser } from './user-attributes.ts';
export { forgetMemberFacts, memberFactsOf, memberGroupsQueries, unknownGroupIds, type MemberFactsRow } from './member-facts.ts';
export { attributeIssues, checkAttributes, isReservedAttribute, MAX_ATTRIBUTES, RESERVED_ATTRIBUTES } from './attribute-rules.ts';
