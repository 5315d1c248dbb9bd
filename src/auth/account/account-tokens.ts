// Single-use account tokens: email verification, password reset, magic links and fallback codes,
// MFA recovery. Only a hash is stored; consumption is one conditional UPDATE (security/consumeOnce).
import type { Clock } from '../../clock.ts';
import { consumeOnce, hashSecret, newId, newSecret } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';

export type AccountTokenPurpose = 'verify_email' | 'reset_password' | 'magic_link' | 'magic_code' | 'mfa_recovery';

export interface AccountTokenRow {
  id: string;
  purpose: AccountTokenPurpose;
  user_id: string;
  group_id: string | null;
  data: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Stores a new token and returns its value (random unless given, e.g. a short code already salted by the caller). */
export function issueAccountToken(
  db: Db,
  clock: Clock,
  t: { purpose: AccountTokenPurpose; userId: string; ttlMs: number; groupId?: string; data?: Record<string, unknown>; value?: string },
): string {
  const value = t.value ?? newSecret();
  const now = clock.now();
  db.prepare(
    `INSERT INTO account_tokens (id, purpose, token_hash, user_id, group_id, data, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(newId(), t.purpose, hashSecret(value), t.userId, t.groupId ?? null, JSON.stringify(t.data ?? {}), now, now + t.ttlMs);
  // Keep the table small: drop tokens that expired over a week ago (about one issue in fifty).
  if (Math.random() < 0.02) db.prepare('DELETE FROM account_tokens WHERE expires_at < ?').run(now - 7 * 24 * 3600_000);
  return value;
}

/** Marks a live token used and returns it; undefined if it is unknown, expired or already used. Exactly one concurrent caller wins. */
export function consumeAccountToken(db: Db, clock: Clock, purpose: AccountTokenPurpose, value: string): AccountTokenRow | undefined {
  const now = clock.now();
  const hash = hashSecret(value);
  const won = consumeOnce(db, { table: 'account_tokens', usedColumn: 'used_at', where: 'token_hash = ? AND purpose = ? AND expires_at > ?', params: [hash, purpose, now], now });
  if (!won) return undefined;
  const row = db.prepare('SELECT * FROM account_tokens WHERE token_hash = ?').get(hash) as AccountTokenRow;
  // A magic link and its fallback code are one credential: using either spends both.
  if (row.group_id) db.prepare('UPDATE account_tokens SET used_at = ? WHERE group_id = ? AND used_at IS NULL').run(now, row.group_id);
  return row;
}

/** Reads a live token without using it. */
export function peekAccountToken(db: Db, clock: Clock, purpose: AccountTokenPurpose, value: string): AccountTokenRow | undefined {
  const row = db.prepare('SELECT * FROM account_tokens WHERE token_hash = ? AND purpose = ?').get(hashSecret(value), purpose) as AccountTokenRow | undefined;
  return row && row.used_at === null && row.expires_at > clock.now() ? row : undefined;
}

/** Spends every live token of a purpose for a user (a new reset link voids the older ones). */
export function revokeAccountTokens(db: Db, clock: Clock, userId: string, purpose: AccountTokenPurpose): void {
  db.prepare('UPDATE account_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL').run(clock.now(), userId, purpose);
}
