// Ending a user's standing access in one batch: every API, CLI and MCP token revoked, and every
// OAuth grant (MCP clients) deleted with each token and code issued from it. Sessions are ended by
// invalidateSessionsQueries; these are the credentials that outlive a session. Used where the
// interface or an admin's intent says access must not come back: an MFA reset or recovery ("access
// tokens cleared"), and a deactivation (reactivating must not bring a leaked token back).
import { sql } from 'kysely';
import type { Query } from '../../store/index.ts';
import { accountIdFor } from '../oauth/account.ts';
import type { AuthStore } from '../single-use-tables.ts';

export interface AccessScope {
  userId: string;
  /** Only the credentials acting in this organization; all of the user's when absent. */
  orgId?: string | undefined;
  now: number;
}

/** The user's OAuth grants in the scope (account ids are `<user>:<org>`). */
function grantsOf(x: AuthStore, { userId, orgId }: AccessScope) {
  const q = x.db.selectFrom('oauth_models').select('id').where('model', '=', 'Grant');
  if (orgId !== undefined) return q.where('account_id', '=', accountIdFor(userId, orgId));
  const prefix = `${userId}:`;
  return q.where(sql<boolean>`substr(account_id, 1, length(cast(${prefix} as text))) = ${prefix}`);
}

/**
 * The statements revoking the user's live tokens (the first returns their ids, so callers can count
 * them) and deleting their OAuth grants with everything issued from them (the last two, tokens first).
 */
export function revokeAccessQueries(x: AuthStore, scope: AccessScope): [Query<{ id: string }>, Query, Query] {
  let tokens = x.db.updateTable('api_tokens').set({ revoked_at: scope.now }).where('user_id', '=', scope.userId).where('revoked_at', 'is', null);
  if (scope.orgId !== undefined) tokens = tokens.where('org_id', '=', scope.orgId);
  return [
    tokens.returning('id'),
    x.db.deleteFrom('oauth_models').where('model', '!=', 'Grant').where('grant_id', 'in', grantsOf(x, scope)),
    x.db.deleteFrom('oauth_models').where('model', '=', 'Grant').where('id', 'in', grantsOf(x, scope)),
  ];
}

/** How many tokens and grants a batch that began at `first` with revokeAccessQueries ended. */
export function revokedAccess(results: { rows: unknown[]; changes: number }[], first: number): { tokens: number; grants: number } {
  return { tokens: results[first]?.rows.length ?? 0, grants: results[first + 2]?.changes ?? 0 };
}
