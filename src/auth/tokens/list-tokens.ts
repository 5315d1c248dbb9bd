// Token listings: metadata only, never values; revoked tokens are gone from every list.
import type { ApiTokenRow, TokenKind } from './api-tokens.ts';
import { getMembership } from '../directory.ts';
import type { Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { TokenUserNotFound } from './errors.ts';
import { requireAdminFor } from './require-admin.ts';
import { toTokenView, type TokenView } from './token-view.ts';

/** The caller's own unrevoked tokens of the given kinds, across their organizations, newest first. */
export function listOwnTokens(deps: TokenDeps, principal: Principal, kinds: TokenKind[]): TokenView[] {
  const rows = deps.db
    .prepare(
      `SELECT * FROM api_tokens WHERE user_id = ? AND revoked_at IS NULL AND kind IN (SELECT value FROM json_each(?))
       ORDER BY created_at DESC, id`,
    )
    .all(principal.userId, JSON.stringify(kinds)) as ApiTokenRow[];
  const now = deps.clock.now();
  return rows.map((r) => toTokenView(r, now));
}

/** Admin view: every unrevoked token (all kinds) of a member, within the admin's organization. */
export function listUserTokens(deps: TokenDeps, principal: Principal, userId: string): TokenView[] {
  requireAdminFor(principal);
  if (!getMembership(deps.db, userId, principal.orgId)) throw new TokenUserNotFound();
  const rows = deps.db
    .prepare('SELECT * FROM api_tokens WHERE org_id = ? AND user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id')
    .all(principal.orgId, userId) as ApiTokenRow[];
  const now = deps.clock.now();
  return rows.map((r) => toTokenView(r, now));
}
