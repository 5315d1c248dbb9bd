// MCP and CLI tokens: one live token per user and kind. Creating one revokes the user's earlier
// tokens of that kind in the same batch, so two concurrent creations never leave two alive. On
// PostgreSQL the batch first writes the user's row (changing nothing): the row lock makes a second
// creation wait until the first commits, and its revocation then sees the first one's token.
import { sql } from 'kysely';
import { insertTokenQuery, type ApiTokenRow } from './api-tokens.ts';
import { SCOPE_API_FULL, SCOPE_MCP_ALL, type Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { revokeTokensOfKindQuery } from './revoke-token.ts';
import { toTokenView, type CreatedToken } from './token-view.ts';

/** MCP tokens live for 365 days (interface part 8). */
export const MCP_TOKEN_TTL_MS = 365 * 24 * 3600 * 1000;

/** Creates the caller's MCP token (scope mcp:*, 365 days), revoking the previous one. */
export function createMcpToken(deps: TokenDeps, principal: Principal): Promise<CreatedToken> {
  return createExclusiveToken(deps, principal, { kind: 'mcp', scopes: [SCOPE_MCP_ALL], name: 'MCP token', ttlMs: MCP_TOKEN_TTL_MS });
}

/** Creates a CLI token (scope api:full) for the caller, revoking their existing CLI tokens. */
export function createCliToken(deps: TokenDeps, principal: Principal): Promise<CreatedToken> {
  return createExclusiveToken(deps, principal, { kind: 'cli', scopes: [SCOPE_API_FULL], name: 'CLI' });
}

async function createExclusiveToken(
  deps: TokenDeps,
  principal: Principal,
  { kind, scopes, name, ttlMs }: { kind: 'mcp' | 'cli'; scopes: string[]; name: string; ttlMs?: number },
): Promise<CreatedToken> {
  const now = deps.clock.now();
  const { value, insert } = insertTokenQuery(deps.store, deps.clock, {
    userId: principal.userId,
    orgId: principal.orgId,
    kind,
    scopes,
    name,
    expiresAt: ttlMs === undefined ? null : now + ttlMs,
    createdBy: principal.userId,
  });
  const lockUser = deps.store.db.updateTable('users').set({ name: sql`name` }).where('id', '=', principal.userId);
  const done = await deps.store.batch([lockUser, revokeTokensOfKindQuery(deps, principal.userId, kind), insert]);
  const row = done.ok ? (done.results[2]?.rows[0] as ApiTokenRow | undefined) : undefined;
  if (!row) throw new Error('the token insert returned no row');
  return { ...toTokenView(row, now), token: value };
}
