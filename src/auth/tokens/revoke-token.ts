// Revocation: a revoked token stops working on the next request (authentication reads the store).
import type { TokenKind } from './api-tokens.ts';
import { getMembership } from '../directory.ts';
import type { Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { TokenNotFound, TokenUserNotFound } from './errors.ts';
import { requireAdminFor } from './require-admin.ts';

/** What a revocation touched, for follow-up work (e.g. ending OAuth grants when an MCP token goes). */
export interface RevokedToken {
  id: string;
  user_id: string;
  org_id: string;
  kind: TokenKind;
}

/** Revokes one of the caller's own tokens of the given kinds; anyone else's, or another kind, is 404. */
export function revokeOwnToken(deps: TokenDeps, principal: Principal, tokenId: string, kinds: TokenKind[]): RevokedToken {
  const row = deps.db
    .prepare(
      `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL
       AND kind IN (SELECT value FROM json_each(?)) RETURNING id, user_id, org_id, kind`,
    )
    .get(deps.clock.now(), tokenId, principal.userId, JSON.stringify(kinds)) as RevokedToken | undefined;
  if (!row) throw new TokenNotFound();
  return row;
}

/** Admin: revokes any token of a member that belongs to the admin's organization. */
export function revokeUserToken(deps: TokenDeps, principal: Principal, userId: string, tokenId: string): RevokedToken {
  requireAdminFor(principal);
  if (!getMembership(deps.db, userId, principal.orgId)) throw new TokenUserNotFound();
  const row = deps.db
    .prepare(
      `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND org_id = ? AND revoked_at IS NULL
       RETURNING id, user_id, org_id, kind`,
    )
    .get(deps.clock.now(), tokenId, userId, principal.orgId) as RevokedToken | undefined;
  if (!row) throw new TokenNotFound();
  return row;
}

/** Revokes every live token of a kind for a user; returns the ids revoked (e.g. for OAuth grant cleanup). */
export function revokeTokensOfKind(deps: TokenDeps, userId: string, kind: TokenKind): string[] {
  return deps.db
    .prepare('UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND kind = ? AND revoked_at IS NULL RETURNING id')
    .pluck()
    .all(deps.clock.now(), userId, kind) as string[];
}
