// MCP and CLI tokens: one live token per user and kind. Creating one revokes the user's earlier
// tokens of that kind in the same transaction, so two concurrent creations never leave two alive.
import { insertToken } from './api-tokens.ts';
import { SCOPE_API_FULL, SCOPE_MCP_ALL, type Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { revokeTokensOfKind } from './revoke-token.ts';
import { toTokenView, type CreatedToken } from './token-view.ts';
import { transact } from '../../store/index.ts';

/** MCP tokens live for 365 days (interface part 8). */
export const MCP_TOKEN_TTL_MS = 365 * 24 * 3600 * 1000;

/** Creates the caller's MCP token (scope mcp:*, 365 days), revoking the previous one. */
export function createMcpToken(deps: TokenDeps, principal: Principal): CreatedToken {
  return createExclusiveToken(deps, principal, { kind: 'mcp', scopes: [SCOPE_MCP_ALL], name: 'MCP token', ttlMs: MCP_TOKEN_TTL_MS });
}

/** Creates a CLI token (scope api:full) for the caller, revoking their existing CLI tokens. */
export function createCliToken(deps: TokenDeps, principal: Principal): CreatedToken {
  return createExclusiveToken(deps, principal, { kind: 'cli', scopes: [SCOPE_API_FULL], name: 'CLI' });
}

function createExclusiveToken(
  deps: TokenDeps,
  principal: Principal,
  { kind, scopes, name, ttlMs }: { kind: 'mcp' | 'cli'; scopes: string[]; name: string; ttlMs?: number },
): CreatedToken {
  return transact(deps.db, () => {
    revokeTokensOfKind(deps, principal.userId, kind);
    const now = deps.clock.now();
    const { value, row } = insertToken(deps.db, deps.clock, {
      userId: principal.userId,
      orgId: principal.orgId,
      kind,
      scopes,
      name,
      expiresAt: ttlMs === undefined ? null : now + ttlMs,
      createdBy: principal.userId,
    });
    return { ...toTokenView(row, now), token: value };
  });
}
