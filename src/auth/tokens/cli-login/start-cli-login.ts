import { RateLimited } from '../../../errors.ts';
import { hashSecret, newId, newSecret } from '../../../security/index.ts';
import { CLI_POLL_INTERVAL_SECONDS, expireCliLogins, newUserCode, type CliLoginDeps } from './cli-login-store.ts';

export interface StartedCliLogin {
  /** Secret the CLI keeps and polls with; never shown in a browser. */
  code: string;
  /** Short code the person compares between terminal and browser, e.g. `BCDF-GHJK`. */
  user_code: string;
  /** Page where a signed-in user approves; carries its own browser code, not `code`. */
  authorize_url: string;
  expires_in: number;
  expires_at: string;
  interval: number;
}

/** Live sign-in records allowed at once, across all callers. */
export const MAX_LIVE_CLI_LOGINS = 10_000;

/** Starts a CLI device sign-in (no credential): a pending record that expires after the configured TTL. */
export function startCliLogin(deps: CliLoginDeps): StartedCliLogin {
  expireCliLogins(deps);
  const now = deps.clock.now();
  // Start needs no credential; a ceiling on live records keeps a flood from filling the disk.
  const live = deps.db.prepare('SELECT COUNT(*) FROM cli_logins WHERE expires_at > ?').pluck().get(now) as number;
  if (live >= (deps.maxLive ?? MAX_LIVE_CLI_LOGINS)) throw new RateLimited(60, 'Too many pending CLI sign-ins, try again later', 'CLI_LOGIN_BUSY');
  const code = newSecret();
  const browserCode = newSecret();
  const userCode = newUserCode();
  const expiresAt = now + deps.ttlMs;
  deps.db
    .prepare(
      `INSERT INTO cli_logins (id, poll_code_hash, browser_code_hash, user_code_sealed, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(newId(), hashSecret(code), hashSecret(browserCode), deps.secretBox.seal(userCode), now, expiresAt);
  return {
    code,
    user_code: userCode,
    authorize_url: `${deps.baseUrl}/cli/authorize?code=${encodeURIComponent(browserCode)}`,
    expires_in: Math.round(deps.ttlMs / 1000),
    expires_at: new Date(expiresAt).toISOString(),
    interval: CLI_POLL_INTERVAL_SECONDS,
  };
}
