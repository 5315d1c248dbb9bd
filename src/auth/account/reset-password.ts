// Password reset: a request (queued by account-mail.ts, same answer and work for every address) mails a
// single-use, expiring token; confirming sets the new password and signs the user out everywhere.
import { sql } from 'kysely';
import { hashPassword } from '../../security/index.ts';
import type { AccountDeps } from './account-deps.ts';
import { consumeAccountToken, issueAccountTokenWrites, peekAccountToken, revokeAccountTokensQuery } from './account-tokens.ts';
import type { ComposedMail } from './composed-mail.ts';
import { writeAudit } from '../audit.ts';
import { getUser, type UserRow } from '../directory.ts';
import { InvalidAccountToken } from '../errors.ts';
import { invalidateSessionsQueries } from '../credentials/invalidate-sessions.ts';
import { resetPasswordMail } from './mails.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';

export const RESET_TTL_MS = 3600_000;

/** The reset mail of an existing account that may have a password (older links voided); undefined otherwise. */
export function resetMailFor(deps: AccountDeps, user: UserRow | undefined): ComposedMail | undefined {
  // SSO-only accounts have no password and must not gain one through the back door.
  if (!user || user.disabled_at !== null || user.identity_kind === 'sso') return undefined;
  const token = issueAccountTokenWrites(deps.store, deps.clock, { purpose: 'reset_password', userId: user.id, ttlMs: RESET_TTL_MS });
  return { writes: [revokeAccountTokensQuery(deps.store, deps.clock, user.id, 'reset_password'), ...token.writes], message: resetPasswordMail(deps.baseUrl, user.email, token.value) };
}

/** Sets a new password with a reset token; the token is spent once even if two requests race. */
export async function confirmPasswordReset(deps: AccountDeps, { token, newPassword }: { token: string; newPassword: string }): Promise<void> {
  // Strength is checked before the token is spent, so a weak choice can be retried with the same link.
  const live = await peekAccountToken(deps.store, deps.clock, 'reset_password', token);
  const user = live && (await getUser(deps.store, live.user_id));
  if (!user) throw new InvalidAccountToken();
  assertPasswordStrength(newPassword, user.email, 'new_password');
  const hash = await hashPassword(newPassword, deps.bcryptCost);
  const consumed = await consumeAccountToken(deps.store, deps.clock, 'reset_password', token);
  if (!consumed) throw new InvalidAccountToken();
  const x = deps.store;
  await x.batch([
    x.db
      .updateTable('users')
      .set({ password_hash: hash, identity_kind: 'password', email_verified_at: sql`coalesce(email_verified_at, ${deps.clock.now()})` })
      .where('id', '=', consumed.user_id),
    ...invalidateSessionsQueries(consumed.user_id, deps.clock.now()),
  ]);
  await writeAudit(deps, { action: 'password_reset', userId: consumed.user_id });
}
