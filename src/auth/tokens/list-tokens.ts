// Token listings: metadata only, never values; revoked tokens are gone from every list.
import { byteOrder } from '../../store/index.ts';
import { TOKEN_COLUMNS, type TokenKind } from './api-tokens.ts';
import type { Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { requireAdminOfMember } from './member-check.ts';
import { toTokenView, type TokenView } from './token-view.ts';

/** The caller's own unrevoked tokens of the given kinds, across their organizations, newest first. */
export async function listOwnTokens(deps: TokenDeps, principal: Principal, kinds: TokenKind[]): Promise<TokenView[]> {
  return views(deps, liveTokensOf(deps, principal.userId).where('kind', 'in', kinds));
}

/** Admin view: every unrevoked token (all kinds) of a member, within the admin's organization. */
export async function listUserTokens(deps: TokenDeps, principal: Principal, userId: string): Promise<TokenView[]> {
  await requireAdminOfMember(deps, principal, userId);
  return views(deps, liveTokensOf(deps, userId).where('org_id', '=', principal.orgId));
}

/** A user's unrevoked tokens, newest first, then by id in byte order on both dialects (callers narrow it further). */
function liveTokensOf({ store }: TokenDeps, userId: string) {
  return store.db.selectFrom('api_tokens').select(TOKEN_COLUMNS).where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy(byteOrder(store, 'id'));
}

async function views(deps: TokenDeps, q: ReturnType<typeof liveTokensOf>): Promise<TokenView[]> {
  const rows = await deps.store.all(q);
  const now = deps.clock.now();
  return rows.map((r) => toTokenView(r, now));
}
