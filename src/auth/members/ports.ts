// What the members module asks of other domains (implemented in src/compose/member-facts.ts).

/** A member's row-level security facts: attributes and groups (src/data/rls owns them). */
export interface MemberFactsView {
  attributes: Record<string, string>;
  groups: { id: string; name: string }[];
}

export interface MemberFacts {
  /** The facts of some members of an organization, by user id (members without facts are absent). */
  factsOf(orgId: string, userIds: string[]): Promise<Map<string, MemberFactsView>>;
  /** Group ids among `groupIds` that do not exist in the organization. */
  unknownGroups(orgId: string, groupIds: string[]): Promise<string[]>;
  /** Replaces the attributes and (when given) the group memberships of a member. */
  setFacts(orgId: string, userId: string, facts: { attributes?: Record<string, string> | undefined; groups?: string[] | undefined }): Promise<void>;
  /** Forgets a removed member's facts. */
  forget(orgId: string, userId: string): Promise<void>;
}
