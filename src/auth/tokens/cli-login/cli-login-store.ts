// The SQL of the cli_logins table (migration 0020) and what every CLI sign-in step shares.
import { randomInt } from 'node:crypto';
import { hashSecret, type SecretBox } from '../../../security/index.ts';
import type { TokenDeps } from '../deps.ts';
import { CliLoginExpired, CliLoginNotFound } from '../errors.ts';
import { transact } from '../../../store/index.ts';

export interface CliLoginDeps extends TokenDeps {
  secretBox: SecretBox;
  /** Lifetime of a sign-in code (config cliLoginTtlSeconds). */
  ttlMs: number;
  /** Public base URL of the service, for the authorize URL. */
  baseUrl: string;
  /** Ceiling on live sign-in records (default MAX_LIVE_CLI_LOGINS). */
  maxLive?: number;
}

export type CliLoginStatus = 'pending' | 'approved' | 'denied';

export interface CliLoginRow {
  id: string;
  poll_code_hash: string;
  browser_code_hash: string;
  user_code_sealed: string;
  status: CliLoginStatus;
  user_id: string | null;
  token_id: string | null;
  token_sealed: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
}

/** Seconds the CLI should wait between polls. */
export const CLI_POLL_INTERVAL_SECONDS = 2;

/** Expired rows still answer "expired" for this long, then they are deleted. */
const KEEP_EXPIRED_MS = 3600 * 1000;

// RFC 8628 section 6.1: consonants only, so codes spell no words and are easy to read aloud.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** A short code like `BCDF-GHJK` for the person to compare between terminal and browser. */
export function newUserCode(): string {
  const chars = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/**
 * Housekeeping run by start and poll: a token minted for a sign-in that expired unclaimed is revoked
 * (nobody can ever receive it), and rows expired for over an hour are deleted.
 */
export function expireCliLogins(deps: TokenDeps): void {
  const now = deps.clock.now();
  transact(deps.db, () => {
    deps.db
      .prepare(
        `UPDATE api_tokens SET revoked_at = ? WHERE revoked_at IS NULL
         AND id IN (SELECT token_id FROM cli_logins WHERE expires_at <= ? AND token_id IS NOT NULL)`,
      )
      .run(now, now);
    deps.db.prepare('UPDATE cli_logins SET token_sealed = NULL, token_id = NULL WHERE expires_at <= ? AND token_id IS NOT NULL').run(now);
    deps.db.prepare('DELETE FROM cli_logins WHERE expires_at <= ?').run(now - KEEP_EXPIRED_MS);
  });
}

/** The live sign-in a browser refers to, by the authorize URL's code (the CLI's poll code works too). */
export function findLiveCliLogin(deps: TokenDeps, code: string): CliLoginRow {
  const hash = hashSecret(code);
  const row = deps.db.prepare('SELECT * FROM cli_logins WHERE browser_code_hash = ? OR poll_code_hash = ?').get(hash, hash) as
    | CliLoginRow
    | undefined;
  if (!row) throw new CliLoginNotFound();
  if (row.expires_at <= deps.clock.now()) throw new CliLoginExpired();
  return row;
}
