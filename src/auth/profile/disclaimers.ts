import type { Principal } from '../principal.ts';
import type { ProfileDeps } from './deps.ts';

/** The caller's dismissed disclaimers as `{ hash: true }`. */
export async function dismissedDisclaimers({ store }: Pick<ProfileDeps, 'store'>, principal: Principal): Promise<Record<string, true>> {
  const rows = await store.all(store.db.selectFrom('dismissed_disclaimers').select('disclaimer_hash').where('user_id', '=', principal.userId));
  return Object.fromEntries(rows.map((r) => [r.disclaimer_hash, true as const]));
}

/** Records a dismissal (idempotent). */
export async function dismissDisclaimer({ store, clock }: ProfileDeps, principal: Principal, hash: string): Promise<void> {
  await store.run(
    store.db
      .insertInto('dismissed_disclaimers')
      .values({ user_id: principal.userId, disclaimer_hash: hash, created_at: clock.now() })
      .onConflict((oc) => oc.columns(['user_id', 'disclaimer_hash']).doNothing()),
  );
}

/** Shows a dismissed disclaimer again (idempotent; only the caller's own dismissal). */
export async function restoreDisclaimer({ store }: Pick<ProfileDeps, 'store'>, principal: Principal, hash: string): Promise<void> {
  await store.run(store.db.deleteFrom('dismissed_disclaimers').where('user_id', '=', principal.userId).where('disclaimer_hash', '=', hash));
}
