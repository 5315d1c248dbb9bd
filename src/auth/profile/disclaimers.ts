import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/index.ts';
import type { Principal } from '../principal.ts';

/** The caller's dismissed disclaimers as `{ hash: true }`. */
export function dismissedDisclaimers({ db }: { db: Db }, principal: Principal): Record<string, true> {
  const hashes = db.prepare('SELECT disclaimer_hash FROM dismissed_disclaimers WHERE user_id = ?').pluck().all(principal.userId) as string[];
  return Object.fromEntries(hashes.map((h) => [h, true as const]));
}

/** Records a dismissal (idempotent). */
export function dismissDisclaimer({ db, clock }: { db: Db; clock: Clock }, principal: Principal, hash: string): void {
  db.prepare('INSERT OR IGNORE INTO dismissed_disclaimers (user_id, disclaimer_hash, created_at) VALUES (?, ?, ?)').run(principal.userId, hash, clock.now());
}

/** Shows a dismissed disclaimer again (idempotent; only the caller's own dismissal). */
export function restoreDisclaimer({ db }: { db: Db }, principal: Principal, hash: string): void {
  db.prepare('DELETE FROM dismissed_disclaimers WHERE user_id = ? AND disclaimer_hash = ?').run(principal.userId, hash);
}
