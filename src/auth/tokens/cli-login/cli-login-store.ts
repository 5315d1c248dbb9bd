// The SQL of the cli_logins table (migration 0020) and what every CLI sign-in step shares, on the
// asynchronous store: each step that decides something (approve, deny, claim) is one conditional
// statement whose row count picks the one winner, on SQLite and across PostgreSQL replicas.
import { randomInt } from 'node:crypto';
import { hashSecret, type SecretBox } from '../../../security/index.ts';
import type { TokenDeps } from '../deps.ts';
import { CliLoginExpired, CliLoginNotFound } from '../errors.ts';
import type { ExpressionBuilder } from 'kysely';
import type { CliLoginRow, SingleUseStore, SingleUseTables } from '../../single-use-tables.ts';

export type { CliLoginRow, CliLoginStatus } from '../../single-use-tables.ts';

export interface CliLoginDeps extends TokenDeps {
  /** The asynchronous store of the sign-in records. */
  store: SingleUseStore;
  secretBox: SecretBox;
  /** Lifetime of a sign-in code (config cliLoginTtlSeconds). */
  ttlMs: number;
  /** Public base URL of the service, for the authorize URL. */
  baseUrl: string;
  /** Ceiling on live sign-in records (default MAX_LIVE_CLI_LOGINS). */
  maxLive?: number;
}

/** What the steps that touch only the sign-in records need (every step but approval, which mints a token). */
export type CliLoginStoreDeps = Pick<CliLoginDeps, 'store' | 'clock' | 'secretBox'>;

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
export async function expireCliLogins({ store, clock }: Pick<CliLoginDeps, 'store' | 'clock'>): Promise<void> {
  const now = clock.now();
  const unclaimed = store.db.selectFrom('cli_logins').select('token_id').where('expires_at', '<=', now).where('token_id', 'is not', null);
  // In this order, each statement on its own (no transaction: a poll pays three round trips, not five):
  // a crash between them leaves tokens revoked whose records still name them, done again next time.
  await store.run(store.db.updateTable('api_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null).where('id', 'in', unclaimed));
  await store.run(store.db.updateTable('cli_logins').set({ token_sealed: null, token_id: null }).where('expires_at', '<=', now).where('token_id', 'is not', null));
  await store.run(store.db.deleteFrom('cli_logins').where('expires_at', '<=', now - KEEP_EXPIRED_MS));
}

/** The live sign-in a browser refers to, by the authorize URL's code (the CLI's poll code works too). */
export async function findLiveCliLogin(deps: Pick<CliLoginDeps, 'store' | 'clock'>, code: string): Promise<CliLoginRow> {
  const row = await deps.store.one(deps.store.db.selectFrom('cli_logins').selectAll().where(namedBy(code)));
  if (!row) throw new CliLoginNotFound();
  if (row.expires_at <= deps.clock.now()) throw new CliLoginExpired();
  return row;
}

/** The condition on the sign-in a code names: the browser code of the authorize URL, or the CLI's poll code. */
function namedBy(code: string) {
  const hash = hashSecret(code);
  return (eb: ExpressionBuilder<SingleUseTables, 'cli_logins'>) => eb.or([eb('browser_code_hash', '=', hash), eb('poll_code_hash', '=', hash)]);
}
