// Ten recovery codes per enrollment, stored as bcrypt hashes (the one secret hasher) and shown once. A code is spent with a
// conditional UPDATE, so concurrent use of one captured code succeeds once (on any replica).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { hashShortSecret, newId, verifyShortSecret } from '../../security/index.ts';
import type { Query } from '../../store/index.ts';
import type { SingleUseStore } from '../single-use-tables.ts';
import { auditEntryQuery, type AuditEntry } from '../audit-log/write-audit.ts';
import { MfaNotEnabled } from '../errors.ts';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Codes are compared without dashes, spaces or case. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** A new set of recovery codes: the plaintext (shown once) and their hashes (stored). */
export async function newRecoveryCodes(bcryptCost: number): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: await Promise.all(codes.map((c) => hashShortSecret(normalizeRecoveryCode(c), bcryptCost))) };
}

/** The statements replacing the user's recovery codes with `hashes` (for the caller's batch). */
export function recoveryCodeWrites(store: SingleUseStore, userId: string, hashes: string[], now: number): Query[] {
  return [
    store.db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId),
    store.db.insertInto('mfa_recovery_codes').values(hashes.map((code_hash) => ({ id: newId(), user_id: userId, code_hash, created_at: now, used_at: null }))),
  ];
}

/**
 * Replaces the recovery codes of a user with MFA on by a new set (with its `audit` entry) and returns
 * the plaintext codes (once); MFA_NOT_ENABLED when it is off. The batch opens by locking the user's row:
 * two replacements at once (on any replica) run one after the other and leave one set, not both.
 */
export async function replaceRecoveryCodes(deps: { store: SingleUseStore; clock: Clock; bcryptCost: number }, userId: string, audit?: AuditEntry): Promise<string[]> {
  const { codes, hashes } = await newRecoveryCodes(deps.bcryptCost);
  const x = deps.store;
  const now = deps.clock.now();
  const lock = x.db.updateTable('users').set((eb) => ({ totp_enabled_at: eb.ref('totp_enabled_at') })).where('id', '=', userId).where('totp_enabled_at', 'is not', null);
  const done = await x.batch([lock, ...recoveryCodeWrites(x, userId, hashes, now), ...(audit ? [auditEntryQuery(x, audit, now)] : [])], { require: [0] });
  if (!done.ok) throw new MfaNotEnabled();
  return codes;
}

/** Spends a matching unused recovery code; true for exactly one concurrent caller. */
export async function consumeRecoveryCode(deps: { store: SingleUseStore; clock: Clock }, userId: string, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (!/^[a-z0-9]{10}$/.test(normalized)) return false;
  const { store } = deps;
  const rows = await store.all(store.db.selectFrom('mfa_recovery_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null));
  for (const row of rows) {
    if (await verifyShortSecret(normalized, row.code_hash)) {
      const spent = await store.run(store.db.updateTable('mfa_recovery_codes').set({ used_at: deps.clock.now() }).where('id', '=', row.id).where('used_at', 'is', null));
      return spent.changes === 1;
    }
  }
  return false;
}

/** How many unused recovery codes the user has left. */
export async function remainingRecoveryCodes(store: SingleUseStore, userId: string): Promise<number> {
  const row = await store.one(store.db.selectFrom('mfa_recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null));
  return row?.n ?? 0;
}
