// Single-use account tokens: email verification, password reset, magic links and fallback codes,
// MFA recovery. Only a hash is stored; consumption is one conditional UPDATE whose returned rows say
// who won, on SQLite and PostgreSQL alike (the asynchronous store).
import type { Clock } from '../../clock.ts';
import { hashSecret, newId, newSecret } from '../../security/index.ts';
import type { Query } from '../../store/index.ts';
import type { AccountTokenPurpose, AccountTokenRow, SingleUseStore } from '../single-use-tables.ts';

export type { AccountTokenPurpose, AccountTokenRow } from '../single-use-tables.ts';

export interface NewAccountToken {
  purpose: AccountTokenPurpose;
  userId: string;
  ttlMs: number;
  groupId?: string;
  data?: Record<string, unknown>;
  /** The value, when not random (a short code already salted by the caller). */
  value?: string;
}

/** The statements that store a new token (for the caller's batch) and the value they store. */
export function issueAccountTokenWrites(x: SingleUseStore, clock: Clock, t: NewAccountToken): { value: string; writes: Query[] } {
  const value = t.value ?? newSecret();
  const now = clock.now();
  const insert = x.db.insertInto('account_tokens').values({
    id: newId(),
    purpose: t.purpose,
    token_hash: hashSecret(value),
    user_id: t.userId,
    group_id: t.groupId ?? null,
    data: JSON.stringify(t.data ?? {}),
    created_at: now,
    expires_at: now + t.ttlMs,
    used_at: null,
  });
  // Keep the table small: drop tokens that expired over a week ago (about one issue in fifty).
  const purge = Math.random() < 0.02 ? [x.db.deleteFrom('account_tokens').where('expires_at', '<', now - 7 * 24 * 3600_000)] : [];
  return { value, writes: [insert, ...purge] };
}

/** Stores a new token and returns its value. */
export async function issueAccountToken(x: SingleUseStore, clock: Clock, t: NewAccountToken): Promise<string> {
  const { value, writes } = issueAccountTokenWrites(x, clock, t);
  await x.batch(writes);
  return value;
}

/**
 * The statement spending a live token (for a batch that `require`s it): it changes no row when the
 * token is unknown, expired or already used. A magic link and its fallback code are one credential: the
 * one statement spends the token and its group together, so whichever of them is presented, exactly one
 * concurrent caller changes rows.
 */
export function spendAccountTokenQuery(x: SingleUseStore, clock: Clock, purpose: AccountTokenPurpose, value: string) {
  const now = clock.now();
  return x.db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('used_at', 'is', null)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('account_tokens as presented')
        .innerJoin('account_tokens as member', (j) =>
          j.on((on) => on.or([on('member.id', '=', on.ref('presented.id')), on('member.group_id', '=', on.ref('presented.group_id'))])),
        )
        .select('member.id')
        .where('presented.token_hash', '=', hashSecret(value))
        .where('presented.purpose', '=', purpose)
        .where('presented.expires_at', '>', now),
    );
}

/** Marks a live token used and returns it; undefined if it is unknown, expired or already used (exactly one concurrent caller gets it). */
export async function consumeAccountToken(x: SingleUseStore, clock: Clock, purpose: AccountTokenPurpose, value: string): Promise<AccountTokenRow | undefined> {
  const hash = hashSecret(value);
  const spent = await x.all(spendAccountTokenQuery(x, clock, purpose, value).returningAll());
  const row = spent.find((r) => r.token_hash === hash);
  if (!row) return undefined;
  const { token_hash: _hash, ...token } = row;
  return token;
}

/** Reads a live token without using it. */
export async function peekAccountToken(x: SingleUseStore, clock: Clock, purpose: AccountTokenPurpose, value: string): Promise<AccountTokenRow | undefined> {
  return x.one(
    x.db
      .selectFrom('account_tokens')
      .select(['id', 'purpose', 'user_id', 'group_id', 'data', 'created_at', 'expires_at', 'used_at'])
      .where('token_hash', '=', hashSecret(value))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', clock.now()),
  );
}

/** The statement spending every live token of a purpose for a user (a new reset link voids the older ones). */
export function revokeAccountTokensQuery(x: SingleUseStore, clock: Clock, userId: string, purpose: AccountTokenPurpose): Query {
  return x.db.updateTable('account_tokens').set({ used_at: clock.now() }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null);
}

/** Spends every live token of a purpose for a user. */
export async function revokeAccountTokens(x: SingleUseStore, clock: Clock, userId: string, purpose: AccountTokenPurpose): Promise<void> {
  await x.run(revokeAccountTokensQuery(x, clock, userId, purpose));
}
