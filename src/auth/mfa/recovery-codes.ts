// Ten recovery codes per enrollment, stored as bcrypt hashes (the one secret hasher) and shown once. A code is spent with a
// conditional UPDATE, so concurrent use of one captured code succeeds once.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { hashShortSecret, newId, verifyShortSecret } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';
import type { SingleUseStore } from '../single-use-tables.ts';

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

/** Replaces the user's recovery codes with a new set and returns the plaintext codes (once). */
export async function replaceRecoveryCodes(deps: { db: Db; clock: Clock; bcryptCost: number }, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const hashes = await Promise.all(codes.map((c) => hashShortSecret(normalizeRecoveryCode(c), deps.bcryptCost)));
  const now = deps.clock.now();
  transact(deps.db, () => {
    deps.db.prepare('DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
    const insert = deps.db.prepare('INSERT INTO mfa_recovery_codes (id, user_id, code_hash, created_at) VALUES (?, ?, ?, ?)');
    for (const h of hashes) insert.run(newId(), userId, h, now);
  });
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
export function remainingRecoveryCodes(db: Db, userId: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE user_id = ? AND used_at IS NULL').get(userId) as { n: number }).n;
}
