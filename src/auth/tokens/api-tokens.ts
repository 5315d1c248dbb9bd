// API, CLI and MCP tokens: their shape, their use and their issuance. Looking one up is one statement
// together with its user and organization (credential-rows.ts).
import type { Clock } from '../../clock.ts';
import { hashSecret, newId, newSecret } from '../../security/index.ts';
import type { ApiTokenRow, TokenKind } from '../user-tables.ts';
import type { AuthStore } from '../single-use-tables.ts';

export type { ApiTokenRow, TokenKind } from '../user-tables.ts';

/** Value prefixes make leaked tokens recognizable to secret scanners and people. */
export const TOKEN_PREFIX: Record<TokenKind, string> = { api: 'sxt_api_', cli: 'sxt_cli_', mcp: 'sxt_mcp_' };

/** True when the string has the shape of one of our token values. */
export function looksLikeApiToken(value: string): boolean {
  return /^sxt_(api|cli|mcp)_[\w-]{20,}$/.test(value);
}

/** Records use, at most once a minute per token so hot tokens do not write on every request. */
export async function touchToken(store: AuthStore, clock: Clock, id: string): Promise<void> {
  const now = clock.now();
  await store.run(
    store.db
      .updateTable('api_tokens')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - 60_000)])),
  );
}

/** The columns of a token row (everything but its hash). */
export const TOKEN_COLUMNS = ['id', 'user_id', 'org_id', 'kind', 'name', 'description', 'prefix', 'scopes', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

export interface NewToken {
  userId: string;
  orgId: string;
  kind: TokenKind;
  scopes: string[];
  name?: string;
  description?: string;
  expiresAt?: number | null;
  createdBy?: string;
}

/**
 * The statement storing a new token (it returns the stored row, for a batch) and the token's value,
 * which is never stored or shown again.
 */
export function insertTokenQuery(x: AuthStore, clock: Clock, t: NewToken) {
  const value = newSecret(TOKEN_PREFIX[t.kind]);
  const insert = x.db
    .insertInto('api_tokens')
    .values({
      id: newId(),
      user_id: t.userId,
      org_id: t.orgId,
      kind: t.kind,
      name: t.name ?? '',
      description: t.description ?? '',
      token_hash: hashSecret(value),
      prefix: value.slice(0, TOKEN_PREFIX[t.kind].length + 4),
      scopes: t.scopes.join(' '),
      created_by: t.createdBy ?? t.userId,
      created_at: clock.now(),
      expires_at: t.expiresAt ?? null,
    })
    .returning(TOKEN_COLUMNS);
  return { value, insert };
}

/** Stores a new token; returns its value and its row. */
export async function insertToken(x: AuthStore, clock: Clock, t: NewToken): Promise<{ value: string; row: ApiTokenRow }> {
  const { value, insert } = insertTokenQuery(x, clock, t);
  const row = await x.one(insert);
  if (!row) throw new Error('the token insert returned no row');
  return { value, row };
}
