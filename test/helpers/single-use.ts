// Fixtures for the single-use credential stores on either dialect: an organization and a user
// written through the executor, TOTP codes at the fake clock's time, and a CLI sign-in approved with a
// held token (approval mints through the legacy token store, so the fixture writes its outcome).
import { sql } from 'kysely';
import { generateSync } from 'otplib';
import { newTotpSecret } from '../../src/auth/mfa/totp.ts';
import type { SingleUseStore } from '../../src/auth/single-use-tables.ts';
import { startCliLogin, type StartedCliLogin } from '../../src/auth/tokens/cli-login/start-cli-login.ts';
import type { CliLoginStoreDeps } from '../../src/auth/tokens/cli-login/cli-login-store.ts';
import type { FakeClock } from '../../src/clock.ts';
import { createSecretBox, hashSecret, newSecret, type SecretBox } from '../../src/security/index.ts';

export const secretBox: SecretBox = createSecretBox(Buffer.alloc(32, 7).toString('base64'));

/** Organization `o1` and user `u1` (a@example.com) with an active TOTP secret; returns the secret (plain). */
export async function seedUser(x: SingleUseStore): Promise<string> {
  const secret = newTotpSecret();
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'O1', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at, totp_secret, totp_enabled_at) VALUES ('u1', 'a@example.com', 0, ${secretBox.seal(secret)}, 0)`);
  return secret;
}

/** The TOTP code of `secret` at the clock's time. */
export function totpAt(clock: FakeClock, secret: string): string {
  return generateSync({ secret, epoch: Math.floor(clock.now() / 1000) });
}

/** The user's TOTP state as a request reads it before spending a code. */
export async function totpHolder(x: SingleUseStore) {
  return (await x.one(x.db.selectFrom('users').select(['id', 'totp_secret', 'totp_last_step']).where('id', '=', 'u1')))!;
}

export function cliDeps(x: SingleUseStore, clock: FakeClock, maxLive?: number): CliLoginStoreDeps & { ttlMs: number; baseUrl: string; maxLive?: number } {
  return { store: x, clock, secretBox, ttlMs: 600_000, baseUrl: 'https://sextant.example', ...(maxLive === undefined ? {} : { maxLive }) };
}

/** A started sign-in that u1 approved: its CLI token (`value`) is held, sealed, until a poll claims it. */
export async function approvedCliLogin(x: SingleUseStore, clock: FakeClock): Promise<{ started: StartedCliLogin; tokenId: string; value: string }> {
  const started = await startCliLogin(cliDeps(x, clock));
  const tokenId = `t${newSecret().slice(0, 12)}`;
  const value = newSecret('sxc_');
  await x.run(
    sql`INSERT INTO api_tokens (id, user_id, org_id, kind, token_hash, prefix, scopes, created_at)
        VALUES (${tokenId}, 'u1', 'o1', 'cli', ${hashSecret(value)}, 'sxc_', 'api:full', ${clock.now()})`,
  );
  const { changes } = await x.run(
    x.db
      .updateTable('cli_logins')
      .set({ status: 'approved', user_id: 'u1', token_id: tokenId, token_sealed: secretBox.seal(value), decided_at: clock.now() })
      .where('poll_code_hash', '=', hashSecret(started.code)),
  );
  if (changes !== 1) throw new Error('the sign-in to approve was not found');
  return { started, tokenId, value };
}
