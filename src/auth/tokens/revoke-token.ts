// Revocation: a revoked token stops working on the next request (authentication reads the store).
// Each is one conditional UPDATE whose returned row says it was live and the caller's.
import type { Query } from '../../store/index.ts';
import type { TokenKind } from './api-tokens.ts';
import type { Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { TokenNotFound } from './errors.ts';
import { requireAdminOfMember } from './member-check.ts';

/** What a revocation touched, for follow-up work (e.g. ending OAuth grants when an MCP token goes). */
export interface RevokedToken {
  id: string;
  user_id: string;
  org_id: string;
  kind: TokenKind;
}

/** Revokes one of the caller's own tokens of the given kinds; anyone else's, or another kind, is 404. */
export async function revokeOwnToken(deps: TokenDeps, principal: Principal, tokenId: string, kinds: TokenKind[]): Promise<RevokedToken> {
  return revoked(deps, revokeLive(deps, tokenId, principal.userId).where('kind', 'in', kinds));
}

/** Admin: revokes any token of a member that belongs to the admin's organization. */
export async function revokeUserToken(deps: TokenDeps, principal: Principal, userId: string, tokenId: string): Promise<RevokedToken> {
  await requireAdminOfMember(deps, principal, userId);
  return revoked(deps, revokeLive(deps, tokenId, userId).where('org_id', '=', principal.orgId));
}

/** Revokes a user's token if it is live (callers narrow it further); returns what it revoked. */
function revokeLive(deps: TokenDeps, tokenId: string, userId: string) {
  return deps.store.db
    .updateTable('api_tokens')
    .set({ revoked_at: deps.clock.now() })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'user_id', 'org_id', 'kind']);
}

async function revoked(deps: TokenDeps, q: ReturnType<typeof revokeLive>): Promise<RevokedToken> {
  const row = await deps.store.one(q);
  if (!row) throw new TokenNotFound();
  return row;
}

/** The statement revoking every live token of a kind for a user; it returns the ids revoked (e.g. for OAuth grant cleanup). */
export function revokeTokensOfKindQuery(deps: TokenDeps, userId: string, kind: TokenKind): Query<{ id: string }> {
  return deps.store.db
    .updateTable('api_tokens')
    .set({ revoked_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .returning('id');
}

/** Revokes every live token of a kind for a user; returns the ids revoked. */
export async function revokeTokensOfKind(deps: TokenDeps, userId: string, kind: TokenKind): Promise<string[]> {
  return (await deps.store.all(revokeTokensOfKindQuery(deps, userId, kind))).map((r) => r.id);
}
