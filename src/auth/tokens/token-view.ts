// The public shape of a token: metadata only. The value exists only in the creation response.
import type { ApiTokenRow, TokenKind } from './api-tokens.ts';

export interface TokenView {
  token_id: string;
  /** The organization the token acts in. */
  org_id: string;
  kind: TokenKind;
  name: string;
  description: string;
  /** The first characters of the value, to recognize a token in a list. */
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  expired: boolean;
}

/** A created token: its metadata plus the value, returned exactly once. */
export interface CreatedToken extends TokenView {
  token: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Metadata of a stored token as clients see it. */
export function toTokenView(row: ApiTokenRow, now: number): TokenView {
  return {
    token_id: row.id,
    org_id: row.org_id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    prefix: row.prefix,
    scopes: row.scopes.split(' ').filter(Boolean),
    created_at: new Date(row.created_at).toISOString(),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
    expired: row.expires_at !== null && row.expires_at <= now,
  };
}
