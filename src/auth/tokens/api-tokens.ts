// API, CLI and MCP tokens: their shape, their use and their issuance. Looking one up is one statement
// together with its user and organization (credential-rows.ts).
import type { Clock } from '../../clock.ts';
import { hashSecret, newId, newSecret } from '../../security/index.ts';
import { statement, type Db } from '../../store/index.ts';

export type TokenKind = 'api' | 'cli' | 'mcp';

export interface ApiTokenRow {
  id: string;
  user_id: string;
  org_id: string;
  kind: TokenKind;
  name: string;
  description: string;
  prefix: string;
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Value prefixes make leaked tokens recognizable to secret scanners and people. */
export const TOKEN_PREFIX: Record<TokenKind, string> = { api: 'sxt_api_', cli: 'sxt_cli_', mcp: 'sxt_mcp_' };

/** True when the string has the shape of one of our token values. */
export function looksLikeApiToken(value: string): boolean {
  return /^sxt_(api|cli|mcp)_[\w-]{20,}$/.test(value);
}

/** Records use, at most once a minute per token so hot tokens do not write on every request. */
export function touchToken(db: Db, clock: Clock, id: string): void {
  const now = clock.now();
  statement(db, 'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)').run(now, id, now - 60_000);
}

/** Stores a new token and returns its value, which is never stored or shown again. */
export function insertToken(
  db: Db,
  clock: Clock,
  t: { userId: string; orgId: string; kind: TokenKind; scopes: string[]; name?: string; description?: string; expiresAt?: number | null; createdBy?: string },
): { id: string; value: string; row: ApiTokenRow } {
  const id = newId();
  const value = newSecret(TOKEN_PREFIX[t.kind]);
  db.prepare(
    `INSERT INTO api_tokens (id, user_id, org_id, kind, name, description, token_hash, prefix, scopes, created_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    t.userId,
    t.orgId,
    t.kind,
    t.name ?? '',
    t.description ?? '',
    hashSecret(value),
    value.slice(0, TOKEN_PREFIX[t.kind].length + 4),
    t.scopes.join(' '),
    t.createdBy ?? t.userId,
    clock.now(),
    t.expiresAt ?? null,
  );
  return { id, value, row: db.prepare('SELECT * FROM api_tokens WHERE id = ?').get(id) as ApiTokenRow };
}
