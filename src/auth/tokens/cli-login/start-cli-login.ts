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
export async function startCliLogin(deps: Omit<CliLoginDeps, 'db'>): Promise<StartedCliLogin> {
  await expireCliLogins(deps);
  const { store } = deps;
  const now = deps.clock.now();
  // Start needs no credential; a ceiling on live records keeps a flood from filling the disk.
  const { live } = (await store.one(store.db.selectFrom('cli_logins').select((eb) => eb.fn.countAll<number>().as('live')).where('expires_at', '>', now)))!;
  if (live >= (deps.maxLive ?? MAX_LIVE_CLI_LOGINS)) throw new RateLimited(60, 'Too many pending CLI sign-ins, try again later', 'CLI_LOGIN_BUSY');
  const code = newSecret();
  const browserCode = newSecret();
  const userCode = newUserCode();
  const expiresAt = now + deps.ttlMs;
  await store.run(
    store.db.insertInto('cli_logins').values({
      id: newId(),
      poll_code_hash: hashSecret(code),
      browser_code_hash: hashSecret(browserCode),
      user_code_sealed: deps.secretBox.seal(userCode),
      status: 'pending',
      created_at: now,
      expires_at: expiresAt,
      user_id: null,
      token_id: null,
      token_sealed: null,
      decided_at: null,
    }),
  );
  return {
    code,
    user_code: userCode,
    authorize_url: `${deps.baseUrl}/cli/authorize?code=${encodeURIComponent(browserCode)}`,
    expires_in: Math.round(deps.ttlMs / 1000),
    expires_at: new Date(expiresAt).toISOString(),
    interval: CLI_POLL_INTERVAL_SECONDS,
  };
}
