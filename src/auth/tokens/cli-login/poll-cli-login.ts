// The CLI side: poll until a person decides; the token is handed over exactly once.
import type { ApiTokenRow } from '../api-tokens.ts';
import { getUser } from '../../directory.ts';
import { hashSecret } from '../../../security/index.ts';
import { CliLoginDenied, CliLoginExpired, CliLoginNotFound } from '../errors.ts';
import { CLI_POLL_INTERVAL_SECONDS, expireCliLogins, type CliLoginDeps, type CliLoginRow } from './cli-login-store.ts';

export type CliLoginPoll =
  | { status: 'pending'; interval: number; expires_at: string }
  | { status: 'complete'; token: string; token_id: string; user_id: string; email: string; org_id: string; scopes: string[] };

/**
 * One poll. Pending: keep polling. Approved: the token, and the record is deleted in the same
 * statement, so among concurrent polls exactly one receives it (the others find nothing: 404).
 * Denied: 403 CLI_LOGIN_DENIED; expired: 410 CLI_LOGIN_EXPIRED.
 */
export function pollCliLogin(deps: CliLoginDeps, code: string): CliLoginPoll {
  expireCliLogins(deps);
  const now = deps.clock.now();
  const hash = hashSecret(code);
  const claimed = deps.db
    .prepare(`DELETE FROM cli_logins WHERE poll_code_hash = ? AND status = 'approved' AND expires_at > ? AND token_sealed IS NOT NULL RETURNING *`)
    .get(hash, now) as CliLoginRow | undefined;
  if (claimed) {
    const token = deps.db.prepare('SELECT * FROM api_tokens WHERE id = ?').get(claimed.token_id) as ApiTokenRow;
    // Superseded while waiting (the user made another CLI token): a dead token is no answer.
    if (token.revoked_at !== null) throw new CliLoginExpired();
    const user = getUser(deps.db, token.user_id);
    return {
      status: 'complete',
      token: deps.secretBox.open(claimed.token_sealed!),
      token_id: token.id,
      user_id: token.user_id,
      email: user?.email ?? '',
      org_id: token.org_id,
      scopes: token.scopes.split(' ').filter(Boolean),
    };
  }
  const row = deps.db.prepare('SELECT * FROM cli_logins WHERE poll_code_hash = ?').get(hash) as CliLoginRow | undefined;
  if (!row) throw new CliLoginNotFound();
  if (row.expires_at <= now) throw new CliLoginExpired();
  if (row.status === 'denied') throw new CliLoginDenied();
  return { status: 'pending', interval: CLI_POLL_INTERVAL_SECONDS, expires_at: new Date(row.expires_at).toISOString() };
}
