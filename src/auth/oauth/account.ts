// An OAuth account is a user acting in one organization: the grant, and every token from it, stays
// in the organization the user was signed in to when they consented.

/** `<user_id>:<org_id>`; user ids are base64url, so the first colon separates. */
export function accountIdFor(userId: string, orgId: string): string {
  return `${userId}:${orgId}`;
}

/** Splits an account id, or undefined when malformed. */
export function parseAccountId(accountId: string): { userId: string; orgId: string } | undefined {
  const at = accountId.indexOf(':');
  if (at <= 0 || at === accountId.length - 1) return undefined;
  return { userId: accountId.slice(0, at), orgId: accountId.slice(at + 1) };
}

/** The scope MCP clients ask for and the `/ai/mcp` resource requires. */
export const MCP_SCOPE = 'mcp:tools';
