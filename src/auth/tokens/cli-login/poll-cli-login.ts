// The CLI side: poll until a person decides; the token is handed over exactly once.
import { hashSecret } from '../../../security/index.ts';
import { CliLoginDenied, CliLoginExpired, CliLoginNotFound } from '../errors.ts';
import { CLI_POLL_INTERVAL_SECONDS, expireCliLogins, type CliLoginStoreDeps } from './cli-login-store.ts';

export type CliLoginPoll =
  | { status: 'pending'; interval: number; expires_at: string }
  | { status: 'complete'; token: string; token_id: string; user_id: string; email: string; org_id: string; scopes: string[] };

/**
 * One poll. Pending: keep polling. Approved: the token, and the record is deleted in the same
 * statement, so among concurrent polls exactly one receives it (the others find nothing: 404).
 * Denied: 403 CLI_LOGIN_DENIED; expired: 410 CLI_LOGIN_EXPIRED.
 */
export async function pollCliLogin(deps: CliLoginStoreDeps, code: string): Promise<CliLoginPoll> {
  await expireCliLogins(deps);
  const { store } = deps;
  const now = deps.clock.now();
  const hash = hashSecret(code);
  const claimed = await store.one(
    store.db
      .deleteFrom('cli_logins')
      .where('poll_code_hash', '=', hash)
      .where('status', '=', 'approved')
      .where('expires_at', '>', now)
      .where('token_sealed', 'is not', null)
      .returning(['token_id', 'token_sealed']),
  );
  if (claimed) return handOver(deps, claimed.token_id!, claimed.token_sealed!);
  const row = await store.one(store.db.selectFrom('cli_logins').select(['status', 'expires_at']).where('poll_code_hash', '=', hash));
  if (!row) throw new CliLoginNotFound();
  if (row.expires_at <= now) throw new CliLoginExpired();
  if (row.status === 'denied') throw new CliLoginDenied();
  return { status: 'pending', interval: CLI_POLL_INTERVAL_SECONDS, expires_at: new Date(row.expires_at).toISOString() };
}

/** The claimed token with what the CLI shows about it. */
async function handOver({ store, secretBox }: CliLoginStoreDeps, tokenId: string, sealed: string): Promise<CliLoginPoll> {
  const token = await store.one(
    store.db
      .selectFrom('api_tokens')
      .leftJoin('users', 'users.id', 'api_tokens.user_id')
      .select(['api_tokens.id', 'api_tokens.user_id', 'api_tokens.org_id', 'api_tokens.scopes', 'api_tokens.revoked_at', 'users.email'])
      .where('api_tokens.id', '=', tokenId),
  );
  // Superseded while waiting (the user made another CLI token): a dead token is no answer.
  if (!token || token.revoked_at !== null) throw new CliLoginExpired();
  return {
    status: 'complete',
    token: secretBox.open(sealed),
    token_id: token.id,
    user_id: token.user_id,
    email: token.email ?? '',
    org_id: token.org_id,
    scopes: token.scopes.split(' ').filter(Boolean),
  };
}
