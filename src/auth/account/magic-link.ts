// Magic links: a mailed link token plus a short fallback code, one credential used once (either
// spends both). Consumption continues the normal sign-in, so MFA still applies.
import { sql } from 'kysely';
import { randomInt } from 'node:crypto';
import { newId } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import { consumeAccountToken, issueAccountTokenWrites, revokeAccountTokensQuery } from './account-tokens.ts';
import type { ComposedMail } from './composed-mail.ts';
import { findUserByEmail, getUser, type UserRow } from '../directory.ts';
import { InvalidAccountToken } from '../errors.ts';
import { magicLinkMail } from './mails.ts';
import { throttledAttempt } from '../credentials/throttled-attempt.ts';
import { completeFirstFactor, type SignInResult } from '../credentials/sign-in.ts';

export const MAGIC_LINK_TTL_MS = 15 * 60_000;

// The fallback code is short, so it is stored salted with the user id and only usable with the email.
const codeValue = (userId: string, code: string) => `${userId}:${code}`;

/**
 * The sign-in mail of an existing, enabled account: a new link and code (older ones are voided), or
 * undefined for every other address. Runs from the account mail queue, after the request answered.
 */
export function magicLinkMailFor(deps: AccountDeps, user: UserRow | undefined): ComposedMail | undefined {
  // SSO-only accounts sign in through their identity provider.
  if (!user || user.disabled_at !== null || user.identity_kind === 'sso') return undefined;
  const { store, clock } = deps;
  const groupId = newId();
  const link = issueAccountTokenWrites(store, clock, { purpose: 'magic_link', userId: user.id, ttlMs: MAGIC_LINK_TTL_MS, groupId });
  const code = String(randomInt(0, 100_000_000)).padStart(8, '0');
  const fallback = issueAccountTokenWrites(store, clock, { purpose: 'magic_code', userId: user.id, ttlMs: MAGIC_LINK_TTL_MS, groupId, value: codeValue(user.id, code) });
  return {
    writes: [revokeAccountTokensQuery(store, clock, user.id, 'magic_link'), revokeAccountTokensQuery(store, clock, user.id, 'magic_code'), ...link.writes, ...fallback.writes],
    message: magicLinkMail(deps.baseUrl, user.email, link.value, code),
  };
}

export type MagicCredential = { token: string } | { email: string; code: string };

/** Spends a link token or fallback code (exactly one concurrent caller wins) and continues the sign-in. */
export async function consumeMagicLink(deps: AccountDeps, credential: MagicCredential, client: ClientInfo): Promise<SignInResult> {
  if ('token' in credential) {
    const row = await consumeAccountToken(deps.store, deps.clock, 'magic_link', credential.token);
    return finish(deps, row?.user_id, client.ip);
  }
  const user = await findUserByEmail(deps.store, credential.email);
  const account = user?.id ?? credential.email.trim().toLowerCase();
  const userId = await throttledAttempt(deps, account, client, async () => {
    const row = user ? await consumeAccountToken(deps.store, deps.clock, 'magic_code', codeValue(user.id, credential.code.trim())) : undefined;
    if (!row) throw new InvalidAccountToken();
    return row.user_id;
  });
  return finish(deps, userId, client.ip);
}

async function finish(deps: AccountDeps, userId: string | undefined, ip: string): Promise<SignInResult> {
  const user = userId ? await getUser(deps.store, userId) : undefined;
  if (!user || user.disabled_at !== null) throw new InvalidAccountToken();
  // Opening the mail proves the address; a passwordless account is classified as a magic-link identity.
  await deps.store.run(
    deps.store.db
      .updateTable('users')
      .set({
        email_verified_at: sql`coalesce(email_verified_at, ${deps.clock.now()})`,
        identity_kind: sql`coalesce(identity_kind, case when password_hash is null then 'magic_link' end)`,
      })
      .where('id', '=', user.id),
  );
  return completeFirstFactor(deps, (await getUser(deps.store, user.id))!, 'magic_link', undefined, ip);
}
